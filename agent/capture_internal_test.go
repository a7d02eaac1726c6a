// The prefix hasher against crypto/sha256 on bodies that share prefixes of
// every length around its chunk boundaries, and on ones that share nothing.

package agent

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
)

func TestPrefixHasherMatchesSHA256(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var p prefixHasher
	var d digests
	var prev []byte
	prevMark, fromMark := 0, 0
	for i := range 300 {
		var body []byte
		switch i % 5 {
		case 0: // unrelated bytes
			body = make([]byte, rng.IntN(4*hashChunk))
			for j := range body {
				body[j] = byte(rng.IntN(256))
			}
		default: // the previous body cut somewhere near a boundary, then new bytes
			cut := min(len(prev), max(0, (rng.IntN(8)*hashChunk)+rng.IntN(3)-1))
			if i%2 == 0 && prevMark > 0 {
				cut = prevMark // parts from the last body just at its mark
			}
			body = append(bytes.Clone(prev[:cut]), bytes.Repeat([]byte{byte(i)}, rng.IntN(3*hashChunk))...)
		}
		shared := 0
		if prev != nil {
			shared = sharedPrefix(prev, body)
		}
		if prevMark > shared/hashChunk*hashChunk && prevMark <= shared {
			fromMark++ // hashed from the state kept at the mark
		}
		// A mark anywhere in the body, or past it.
		mark := rng.IntN(len(body) + 2)
		sum := p.sum(body, shared, mark)
		prevMark = mark
		if mark >= len(body) {
			prevMark = 0
		}
		ref, h := d.ref(&sum)
		want := sha256.Sum256(body)
		if h != hex.EncodeToString(want[:]) || ref != "sha256:"+h {
			t.Fatalf("body %d (%d bytes, %d shared): got %s, want %x", i, len(body), shared, ref, want)
		}
		prev = body
	}
	if fromMark < 30 {
		t.Errorf("only %d of 300 bodies were hashed from a mark's state", fromMark)
	}
}

// A provider that writes every request into one buffer: the capture must not
// take the buffer's current bytes for the previous request's, so each call's
// hash is its own bytes' and each body is kept whole.
func TestCaptureOfAReusedBuffer(t *testing.T) {
	rs := &runState{a: &Agent{provider: scripted.New(), cfg: config{capture: record.CaptureFull}}}
	buf := make([]byte, 0, 8*hashChunk)
	for i, fill := range []string{"a", "b", "c"} {
		body := append(buf[:0], bytes.Repeat([]byte(fill), 3*hashChunk+i)...)
		got := rs.capture(i+1, "m", &llm.Exchange{RequestBody: body})
		want := sha256.Sum256(body)
		if got.Request.Sha256 != hex.EncodeToString(want[:]) {
			t.Errorf("call %d: hash %s, want %x", i+1, got.Request.Sha256, want)
		}
		if kept := rs.blobs[got.Request.Sha256]; !bytes.Equal(kept, body) {
			t.Errorf("call %d: the body is not kept whole", i+1)
		}
	}
	if len(rs.requests) != 0 {
		t.Errorf("%d requests kept as deltas on a buffer that was overwritten", len(rs.requests))
	}
}

// The same request sent again, right after itself or later, is kept once:
// the record holds no delta on itself, and every call's body rebuilds.
func TestCaptureOfARepeatedRequest(t *testing.T) {
	rs := &runState{a: &Agent{provider: scripted.New(), cfg: config{capture: record.CaptureFull}}}
	tools := `],"tools":[{"name":"fetch_logs"}]}`
	first := `{"messages":[` + strings.Repeat(`"older message",`, 40) + `"question"`
	second := first + `,"answer"`
	var sent [][]byte
	var hashes []string
	for _, body := range []string{first + tools, second + tools, second + tools, first + tools, second + tools} {
		b := []byte(body) // a new buffer every call, as most providers do
		sent = append(sent, b)
		hashes = append(hashes, rs.capture(len(sent), "m", &llm.Exchange{RequestBody: b}).Request.Sha256)
		rec := &record.Record{Blobs: rs.blobs, Requests: rs.requests}
		for h, d := range rs.requests {
			if d.Base == h {
				t.Errorf("after call %d: request %s is kept as a delta on itself", len(sent), h)
			}
		}
		for i, h := range hashes {
			if got, ok := rec.Blob(h); !ok || !bytes.Equal(got, sent[i]) {
				t.Errorf("after call %d: call %d rebuilt %q (ok %v)", len(sent), i+1, got, ok)
			}
		}
	}
	if d := rs.requests[hashes[1]]; d.Reuse != len(tools) {
		t.Errorf("second call: reuse %d, want the %d bytes of the declarations", d.Reuse, len(tools))
	}
}

// The digest buffers only append: every reference handed out keeps its
// bytes while later ones fill the buffer and new buffers start.
func TestDigestsKeepEveryReference(t *testing.T) {
	var d digests
	type kept struct{ ref, h, want string }
	var all []kept
	for i := range 5*digestsPerBuffer + 3 {
		sum := sha256.Sum256([]byte(strconv.Itoa(i)))
		ref, h := d.ref(&sum)
		all = append(all, kept{ref, h, hex.EncodeToString(sum[:])})
	}
	for i, k := range all {
		if k.h != k.want || k.ref != "sha256:"+k.want || len(k.ref) != refLen {
			t.Fatalf("reference %d: got %q and %q, want sha256:%s", i, k.ref, k.h, k.want)
		}
	}
}

// BenchmarkPrefixHasher hashes the eleven request bodies of a turn like the
// ratio benchmark's (each the last one's messages plus a 288-byte exchange,
// then a 180-byte tool section), with and without the mark at the end of the
// messages.
func BenchmarkPrefixHasher(b *testing.B) {
	tools := bytes.Repeat([]byte("t"), 180)
	var bodies [][]byte
	var marks []int
	msgs := []byte(`{"model":"m","system":"You triage incidents.","messages":[{"role":"user","content":"What is broken?"}`)
	for range 11 {
		body := append(append(append([]byte{}, msgs...), `],"tools":`...), tools...)
		bodies, marks = append(bodies, body), append(marks, len(msgs))
		msgs = append(msgs, bytes.Repeat([]byte("m"), 288)...)
	}
	for _, bc := range []struct {
		name string
		mark bool
	}{{"mark", true}, {"chunks-only", false}} {
		b.Run(bc.name, func(b *testing.B) {
			var p prefixHasher
			for b.Loop() {
				p.forget()
				var prev []byte
				for i, body := range bodies {
					shared := 0
					if prev != nil {
						shared = sharedPrefix(prev, body)
					}
					mark := 0
					if bc.mark {
						mark = marks[i]
					}
					p.sum(body, shared, mark)
					prev = body
				}
			}
		})
	}
}

// A wiped hasher keeps no byte of the bodies it hashed, and hashes the next
// body right.
func TestPrefixHasherWipeKeepsNothing(t *testing.T) {
	var p prefixHasher
	secret := bytes.Repeat([]byte("secret request text "), 3*hashChunk/20+7)
	p.sum(secret, 0, len(secret)-5)
	if p.markAt == 0 || len(p.snaps) == 0 {
		t.Fatalf("the hasher kept no state (mark at %d, %d state bytes)", p.markAt, len(p.snaps))
	}
	p.wipe()
	for _, b := range [][]byte{p.snaps[:cap(p.snaps)], p.mark[:cap(p.mark)]} {
		if bytes.Contains(b, []byte("secret")) || len(bytes.Trim(b, "\x00")) != 0 {
			t.Fatalf("wiped state bytes still hold %q", b)
		}
	}
	body := []byte("the next run's request")
	if got, want := p.sum(body, 0, 3), sha256.Sum256(body); got != want {
		t.Fatalf("after wipe: %x, want %x", got, want)
	}
}

// A run's first digest buffer is sized from the agent's last run: after a
// run of three digests the next run's first buffer holds about three, not
// the default for a ten-call turn.
func TestFirstDigestBufferFollowsTheLastRun(t *testing.T) {
	a := &Agent{provider: scripted.New(), cfg: config{capture: record.CaptureFull}}
	first := &runState{a: a}
	for i := range 3 {
		sum := sha256.Sum256([]byte{byte(i)})
		first.digest(&sum)
	}
	if got := first.digests.b.Cap(); got < digestsPerBuffer*refLen {
		t.Fatalf("a run with no history started a buffer of %d bytes, want the default %d", got, digestsPerBuffer*refLen)
	}
	a.sizes.keep(first)
	next := &runState{a: a}
	sum := sha256.Sum256([]byte("next"))
	ref, _ := next.digest(&sum)
	if got := next.digests.b.Cap(); got < 3*refLen || got >= digestsPerBuffer*refLen {
		t.Errorf("after a run of 3 digests the first buffer holds %d bytes, want about %d", got, 3*refLen)
	}
	if ref != "sha256:"+hex.EncodeToString(sum[:]) {
		t.Errorf("reference %q", ref)
	}
}
