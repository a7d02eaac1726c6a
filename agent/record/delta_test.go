package record

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"testing"
)

func hexOf(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// chain keeps bodies[0] whole and every later body as a delta on the one
// before it, split where the two part from the front and from the back, as
// the agent writes them.
func chain(bodies [][]byte) (*Record, []string) {
	r := &Record{Blobs: map[string][]byte{}, Requests: map[string]RequestDelta{}}
	refs := make([]string, len(bodies))
	for i, b := range bodies {
		refs[i] = hexOf(b)
		if _, delta := r.Requests[refs[i]]; delta || r.Blobs[refs[i]] != nil {
			continue // the same body again is kept already, as the agent does
		}
		if i == 0 {
			r.Blobs[refs[i]] = b
			continue
		}
		prev := bodies[i-1]
		keep := 0
		for keep < len(prev) && keep < len(b) && prev[keep] == b[keep] {
			keep++
		}
		reuse := 0
		for reuse < len(prev)-keep && reuse < len(b)-keep && prev[len(prev)-1-reuse] == b[len(b)-1-reuse] {
			reuse++
		}
		tail := b[keep : len(b)-reuse]
		r.Blobs[hexOf(tail)] = tail
		r.Requests[refs[i]] = RequestDelta{Base: refs[i-1], Keep: keep, Tail: "sha256:" + hexOf(tail), Reuse: reuse}
	}
	return r, refs
}

// TestBlobRebuildsDeltasThatReuseTheEndOfTheirBase: a conversation that
// grows in the middle (new messages before the tool declarations), one a
// window cuts short (old messages dropped, the end kept) and random edits
// all rebuild byte for byte, and the deltas of the growing one store only
// what is new.
func TestBlobRebuildsDeltasThatReuseTheEndOfTheirBase(t *testing.T) {
	const decls = `],"tools":[{"name":"fetch_logs","description":"Fetch one page of logs."}]}`
	grow := [][]byte{[]byte(`{"messages":[{"role":"user","content":"Read every page."}` + decls)}
	for i := range 40 {
		prev := grow[len(grow)-1]
		msg := fmt.Sprintf(`,{"role":"tool","content":"page %d: checkout error rate 12%%"}`, i)
		grow = append(grow, append(append(bytes.Clone(prev[:len(prev)-len(decls)]), msg...), decls...))
	}
	window := [][]byte{grow[10], []byte(`{"messages":[` + string(grow[10][len(`{"messages":[{"role":"user","content":"Read every page."},`):]))}
	rng := rand.New(rand.NewPCG(1, 2))
	random := [][]byte{[]byte("the first body, kept whole by the record")}
	for range 60 {
		b := bytes.Clone(random[len(random)-1])
		at := rng.IntN(len(b) + 1)
		switch rng.IntN(3) {
		case 0: // insert
			b = append(b[:at], append([]byte(fmt.Sprintf("<%d>", rng.IntN(1000))), b[at:]...)...)
		case 1: // delete
			b = append(b[:at], b[min(len(b), at+rng.IntN(8)):]...)
		default: // replace a byte with one of the same kind, which may change nothing
			if at < len(b) {
				b[at] = byte('a' + rng.IntN(3))
			}
		}
		random = append(random, b)
	}
	for _, tc := range []struct {
		name   string
		bodies [][]byte
	}{{"grow", grow}, {"window", window}, {"random", random}} {
		t.Run(tc.name, func(t *testing.T) {
			r, refs := chain(tc.bodies)
			for i, ref := range refs {
				got, ok := r.Blob(ref)
				if !ok || !bytes.Equal(got, tc.bodies[i]) {
					t.Fatalf("body %d: rebuilt %q (ok %v), want %q", i, got, ok, tc.bodies[i])
				}
			}
		})
	}
	r, refs := chain(grow)
	for i, ref := range refs[1:] {
		d := r.Requests[ref]
		if tail := r.Blobs[d.Tail[len("sha256:"):]]; bytes.Contains(tail, []byte("fetch_logs")) || d.Reuse != len(decls) {
			t.Errorf("delta %d: tail %q, reuse %d: the declarations are stored again", i+1, tail, d.Reuse)
		}
	}
	if r, refs := chain(window); r.Requests[refs[1]].Reuse <= len(decls) {
		t.Errorf("windowed request reuses %d bytes of the one before it; want its whole kept history", r.Requests[refs[1]].Reuse)
	}
}

// TestBlobRefusesABrokenDelta: a delta that reaches past its base, counts
// backwards, names a tail or base the record lacks, or sits on a cycle
// rebuilds nothing, and says so instead of panicking.
func TestBlobRefusesABrokenDelta(t *testing.T) {
	bodies := [][]byte{[]byte(`{"messages":[1,2,3],"tools":[]}`), []byte(`{"messages":[1,2,3,4],"tools":[]}`), []byte(`{"messages":[1,2,3,4,5],"tools":[]}`)}
	for _, tc := range []struct {
		name  string
		spoil func(r *Record, refs []string)
	}{
		{"reuse past the base", func(r *Record, refs []string) {
			d := r.Requests[refs[1]]
			d.Reuse = len(bodies[0]) - d.Keep + 1
			r.Requests[refs[1]] = d
		}},
		{"negative reuse", func(r *Record, refs []string) {
			d := r.Requests[refs[2]]
			d.Reuse = -1
			r.Requests[refs[2]] = d
		}},
		{"negative keep", func(r *Record, refs []string) {
			d := r.Requests[refs[2]]
			d.Keep = -1
			r.Requests[refs[2]] = d
		}},
		{"missing tail", func(r *Record, refs []string) {
			delete(r.Blobs, r.Requests[refs[1]].Tail[len("sha256:"):])
		}},
		{"missing base", func(r *Record, refs []string) { delete(r.Blobs, refs[0]) }},
		{"cycle", func(r *Record, refs []string) {
			delete(r.Blobs, refs[0])
			r.Requests[refs[0]] = RequestDelta{Base: refs[2], Keep: 1, Tail: r.Requests[refs[1]].Tail}
		}},
		{"changed tail", func(r *Record, refs []string) {
			tail := r.Requests[refs[2]].Tail[len("sha256:"):]
			changed := bytes.Clone(r.Blobs[tail])
			changed[0] ^= 1
			r.Blobs[tail] = changed
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, refs := chain(bodies)
			tc.spoil(r, refs)
			if got, ok := r.Blob(refs[2]); ok {
				t.Errorf("rebuilt %q from a broken chain", got)
			}
		})
	}
}

// FuzzRebuild: whatever Keep and Reuse a record claims, Blob never panics,
// and what it returns hashes to the reference asked for.
func FuzzRebuild(f *testing.F) {
	f.Add(13, 17, 17, 17, []byte("!"))
	f.Add(0, 0, 0, 0, []byte{})
	f.Add(-1, 40, 3, -5, []byte("tail"))
	f.Fuzz(func(t *testing.T, keep1, reuse1, keep2, reuse2 int, tail []byte) {
		bodies := [][]byte{[]byte(`{"messages":["a","b"],"tools":["x"]}`), []byte(`{"messages":["a","b","c"],"tools":["x"]}`), []byte(`{"messages":["a","b","c","d"],"tools":["x"]}`)}
		r, refs := chain(bodies)
		d1, d2 := r.Requests[refs[1]], r.Requests[refs[2]]
		d1.Keep, d1.Reuse, d2.Keep, d2.Reuse = keep1, reuse1, keep2, reuse2
		r.Blobs[hexOf(tail)] = tail
		d2.Tail = hexOf(tail)
		r.Requests[refs[1]], r.Requests[refs[2]] = d1, d2
		for _, ref := range refs {
			if got, ok := r.Blob(ref); ok && hexOf(got) != ref {
				t.Fatalf("Blob(%s) returned bytes hashing to %s", ref, hexOf(got))
			}
		}
	})
}
