// The replay property: after a JSON round trip, ValueAt(i, k) equals what a
// stage running right after commit i read for k, for every key and commit.

package flow_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/google/go-cmp/cmp"
)

var propKeys = []flow.KeyDecl{
	flow.Key[int]("n"), flow.Key[string]("s"), flow.List[msg]("l"),
	flow.Key[map[string]any]("m"), flow.Key[msg]("one"), flow.Key[int]("given"),
}

func propKeyNames() []string {
	names := make([]string, len(propKeys))
	for i, k := range propKeys {
		names[i] = k.KeyName()
	}
	return names
}

// randomPatch builds a JSON-shaped object patch of small depth.
func randomPatch(r *rand.Rand, depth int) map[string]any {
	p := map[string]any{}
	for range 1 + r.IntN(3) {
		k := string(rune('a' + r.IntN(4)))
		switch v := r.IntN(4); {
		case v == 0 && depth < 2:
			p[k] = randomPatch(r, depth+1)
		case v == 1:
			p[k] = []any{float64(r.IntN(9)), "x"}
		case v == 2:
			p[k] = nil
		default:
			p[k] = float64(r.IntN(100))
		}
	}
	return p
}

// randomOps returns a stage body performing a random, seeded mix of writes.
func randomOps(r *rand.Rand) func(s *flow.Scope) {
	type w func(s *flow.Scope)
	var ws []w
	for range r.IntN(4) {
		i := r.IntN(100)
		switch r.IntN(9) {
		case 0:
			ws = append(ws, func(s *flow.Scope) { flow.Key[any]("n").Set(s, i) })
		case 1:
			ws = append(ws, func(s *flow.Scope) { flow.Key[any]("s").Set(s, fmt.Sprint("v", i)) })
		case 2, 3:
			n := 1 + r.IntN(3)
			ws = append(ws, func(s *flow.Scope) {
				for j := range n {
					flow.List[msg]("l").Append(s, msg{Role: "r", Content: fmt.Sprint(i, ".", j)})
				}
			})
		case 4:
			ws = append(ws, func(s *flow.Scope) { flow.Key[any]("l").Set(s, []msg{{Role: "reset", Content: fmt.Sprint(i)}}) })
		case 5:
			p := randomPatch(r, 0)
			ws = append(ws, func(s *flow.Scope) { s.Merge("m", p) })
		case 6:
			ws = append(ws, func(s *flow.Scope) { flow.Key[any]("m").Set(s, map[string]any{"base": float64(i)}) })
		case 7:
			key := []string{"n", "s", "l", "m", "one"}[r.IntN(5)]
			ws = append(ws, func(s *flow.Scope) { s.Delete(key) })
		case 8:
			ws = append(ws, func(s *flow.Scope) { flow.Key[any]("one").Set(s, msg{Role: "one", Content: fmt.Sprint(i)}) })
		}
	}
	return func(s *flow.Scope) {
		for _, f := range ws {
			f(s)
		}
	}
}

type observed struct {
	val     any
	present bool
}

func TestValueAtAfterRoundTripEqualsLive(t *testing.T) {
	names := propKeyNames()
	for seed := uint64(1); seed <= 25; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 7))
			const stages = 40
			// seen[i] = what the stage after commit i read.
			seen := make([]map[string]observed, stages+1)
			b := flow.NewBuilder("prop").Keys(propKeys...)
			for st := range stages {
				body := randomOps(r)
				b.Stage(fmt.Sprint("s", st), func(ctx context.Context, s *flow.Scope) (any, error) {
					view := map[string]observed{}
					for _, k := range names {
						v, ok := s.Get(k)
						view[k] = observed{v, ok}
					}
					seen[st] = view
					body(s)
					return nil, nil
				})
			}
			b.Stage("last", func(ctx context.Context, s *flow.Scope) (any, error) {
				view := map[string]observed{}
				for _, k := range names {
					v, ok := s.Get(k)
					view[k] = observed{v, ok}
				}
				seen[stages] = view
				return nil, nil
			})
			c := b.MustBuild()
			res, err := c.Run(context.Background(), map[string]any{"given": 1})
			if err != nil {
				t.Fatal(err)
			}
			data, err := json.Marshal(res.Record)
			if err != nil {
				t.Fatal(err)
			}
			typed, err := c.DecodeRecord(data)
			if err != nil {
				t.Fatal(err)
			}
			var raw flow.Record
			if err := json.Unmarshal(data, &raw); err != nil {
				t.Fatal(err)
			}
			for i := 0; i <= stages; i++ {
				for _, k := range names {
					want := seen[i][k]
					for name, rec := range map[string]*flow.Record{"live": res.Record, "typed": typed} {
						v, ok, err := flow.ValueAt(rec, i, k)
						if err != nil {
							t.Fatalf("%s ValueAt(%d, %s): %v", name, i, k, err)
						}
						if ok != want.present || !cmp.Equal(v, want.val) {
							t.Fatalf("%s ValueAt(%d, %s) = %#v (%v), stage read %#v (%v)", name, i, k, v, ok, want.val, want.present)
						}
					}
					v, ok, err := flow.ValueAt(&raw, i, k)
					if err != nil {
						t.Fatalf("raw ValueAt(%d, %s): %v", i, k, err)
					}
					if ok != want.present {
						t.Fatalf("raw ValueAt(%d, %s) presence %v, want %v", i, k, ok, want.present)
					}
					if ok {
						wb, _ := json.Marshal(want.val)
						if gb := []byte(v.(json.RawMessage)); !bytes.Equal(wb, gb) {
							t.Fatalf("raw ValueAt(%d, %s) = %s, stage read %s", i, k, gb, wb)
						}
					}
				}
			}
			// Above, each record answered its first look-ups by scanning back
			// and the rest from its key index; here every look-up is the first
			// on a fresh record, so the scan answers it, and must agree with
			// the index.
			if seed <= 5 {
				for i := 0; i <= stages; i++ {
					for _, k := range names {
						fresh, err := c.DecodeRecord(data)
						if err != nil {
							t.Fatal(err)
						}
						v, ok, err := flow.ValueAt(fresh, i, k)
						wv, wok, werr := flow.ValueAt(typed, i, k)
						if (err == nil) != (werr == nil) || ok != wok || !cmp.Equal(v, wv) {
							t.Fatalf("first look-up ValueAt(%d, %s) = %#v (%v, %v), indexed %#v (%v, %v)", i, k, v, ok, err, wv, wok, werr)
						}
					}
				}
			}
			again, err := json.Marshal(typed)
			if err != nil || !bytes.Equal(again, data) {
				t.Fatalf("typed record does not re-encode byte-identically (%v)", err)
			}
		})
	}
}
