// Package indextest is the conformance suite every retrieval.Index passes,
// and the memory walk-back check run against each run store.
package indextest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/retrieval"
	"github.com/agentfootprint/agentfootprint-go/store"
	"github.com/google/go-cmp/cmp"
)

// Run checks an index implementation: exact cosine order with ties by id,
// the same order whatever the insertion order, replacement by id, corpus
// isolation, refusal of bad vectors, and passages listed in id order with
// their metadata. open returns an empty index of corpus for dims-dimension
// vectors.
func Run(t *testing.T, open func(t *testing.T, corpus string, dims int) retrieval.Index) {
	ctx := context.Background()
	t.Run("ranking", func(t *testing.T) {
		a := open(t, "rank-a", 3)
		b := open(t, "rank-b", 3)
		ents := []retrieval.Entry{
			{Passage: retrieval.Passage{ID: "p-x", Text: "x", Source: "s1", Metadata: map[string]string{"k": "v"}}, Vector: []float32{1, 0, 0}},
			{Passage: retrieval.Passage{ID: "p-xy", Text: "xy"}, Vector: []float32{1, 1, 0}},
			{Passage: retrieval.Passage{ID: "p-y", Text: "y"}, Vector: []float32{0, 2, 0}},
			{Passage: retrieval.Passage{ID: "p-tie", Text: "tie"}, Vector: []float32{2, 0, 0}},
			{Passage: retrieval.Passage{ID: "p-neg", Text: "neg"}, Vector: []float32{-1, 0, 0}},
		}
		if err := a.Put(ctx, ents...); err != nil {
			t.Fatal(err)
		}
		for i := len(ents) - 1; i >= 0; i-- {
			if err := b.Put(ctx, ents[i]); err != nil {
				t.Fatal(err)
			}
		}
		want := []string{"p-tie:1.000", "p-x:1.000", "p-xy:0.707", "p-y:0.000"}
		for _, idx := range []retrieval.Index{a, b, a} {
			got, err := idx.Search(ctx, []float32{3, 0, 0}, 4)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, scores(got)); diff != "" {
				t.Errorf("order (-want +got):\n%s", diff)
			}
		}
		got, _ := a.Search(ctx, []float32{1, 0, 0}, 10)
		if len(got) != 5 || got[4].ID != "p-neg" || got[4].Score > -0.999 {
			t.Errorf("all five with p-neg last at -1, got %v", scores(got))
		}
		if got[1].ID != "p-x" || got[1].Source != "s1" || got[1].Metadata["k"] != "v" {
			t.Errorf("p-x came back as %+v", got[1].Passage)
		}
	})
	t.Run("replace-and-isolate", func(t *testing.T) {
		a := open(t, "iso-a", 2)
		b := open(t, "iso-b", 2)
		must(t, a.Put(ctx, retrieval.Entry{Passage: retrieval.Passage{ID: "one", Text: "old"}, Vector: []float32{1, 0}}))
		must(t, a.Put(ctx, retrieval.Entry{Passage: retrieval.Passage{ID: "one", Text: "new"}, Vector: []float32{0, 1}}))
		must(t, b.Put(ctx, retrieval.Entry{Passage: retrieval.Passage{ID: "other", Text: "b's"}, Vector: []float32{0, 1}}))
		got, err := a.Search(ctx, []float32{0, 1}, 5)
		must(t, err)
		if len(got) != 1 || got[0].Text != "new" || got[0].Score < 0.999 {
			t.Errorf("a holds %+v, want only the replaced passage", got)
		}
		ps, err := b.Passages(ctx)
		must(t, err)
		if len(ps) != 1 || ps[0].ID != "other" {
			t.Errorf("b lists %+v", ps)
		}
	})
	t.Run("refusals", func(t *testing.T) {
		a := open(t, "bad", 2)
		good := retrieval.Entry{Passage: retrieval.Passage{ID: "good", Text: "g"}, Vector: []float32{1, 0}}
		for name, e := range map[string]retrieval.Entry{
			"dims":  {Passage: retrieval.Passage{ID: "d", Text: "d"}, Vector: []float32{1, 0, 0}},
			"zero":  {Passage: retrieval.Passage{ID: "z", Text: "z"}, Vector: []float32{0, 0}},
			"id":    {Passage: retrieval.Passage{ID: "Bad ID", Text: "i"}, Vector: []float32{1, 0}},
			"empty": {Passage: retrieval.Passage{ID: "e"}, Vector: []float32{1, 0}},
		} {
			if err := a.Put(ctx, good, e); err == nil {
				t.Errorf("%s: Put accepted a bad entry", name)
			}
		}
		ps, _ := a.Passages(ctx)
		if len(ps) != 0 {
			t.Errorf("a refused batch stored %d passages", len(ps))
		}
		if _, err := a.Search(ctx, []float32{1}, 3); err == nil {
			t.Error("a query of the wrong length was accepted")
		}
	})
	t.Run("listing", func(t *testing.T) {
		a := open(t, "list", 2)
		for _, id := range []string{"b", "a-2", "a-10", "c"} {
			must(t, a.Put(ctx, retrieval.Entry{Passage: retrieval.Passage{ID: id, Text: id}, Vector: []float32{1, 1}}))
		}
		ps, err := a.Passages(ctx)
		must(t, err)
		var ids []string
		for _, p := range ps {
			ids = append(ids, p.ID)
		}
		if diff := cmp.Diff([]string{"a-10", "a-2", "b", "c"}, ids); diff != "" {
			t.Errorf("listing (-want +got):\n%s", diff)
		}
	})
}

// MemoryWalkBack runs conversation A, saves it in st, remembers its turn in
// a memory over idx, then runs conversation B on a fresh agent whose memory
// units recall it, and walks B's placed memory back to A's stored run. It
// also checks that B's turn cannot be written back into the memory it was
// answered from.
func MemoryWalkBack(t *testing.T, idx retrieval.Index, st store.Store) {
	ctx := context.Background()
	emb := retrieval.HashEmbedder{Dims: 64}
	mem, err := retrieval.NewMemory("support-memory", &emb, idx)
	must(t, err)

	a, err := agent.New(scripted.New(scripted.Reply{Content: "Your order ships from the Leeds warehouse."}))
	must(t, err)
	resA, err := a.Run(ctx, agent.Input{Message: "Which warehouse ships my order?"})
	must(t, err)
	if _, err := store.SaveResult(ctx, st, resA, nil); err != nil {
		t.Fatal(err)
	}
	entry, err := mem.Remember(ctx, resA)
	must(t, err)

	units, err := retrieval.Units(ctx, mem.Corpus(), retrieval.WithTopK(1))
	must(t, err)
	answerB := scripted.Func(func(req *llm.Request, call int, seed int64) scripted.Reply {
		for _, s := range req.System {
			if strings.Contains(s.Text, "Leeds") {
				return scripted.Reply{Content: "As before: Leeds."}
			}
		}
		return scripted.Reply{Content: "I do not know."}
	})
	b, err := agent.New(answerB, agent.WithUnits(units...))
	must(t, err)
	resB, err := b.Run(ctx, agent.Input{Message: "Remind me which warehouse ships my order"})
	must(t, err)
	if resB.Answer != "As before: Leeds." {
		t.Fatalf("B answered %q; the memory was not placed", resB.Answer)
	}
	rec, err := retrieval.Records(resB.Record)
	must(t, err)
	if len(rec) != 1 || len(rec[0].Candidates) == 0 || !rec[0].Candidates[0].Picked || rec[0].Candidates[0].ID != entry.ID {
		t.Fatalf("B's retrieval record: %+v", rec)
	}
	runID, turn, ok := retrieval.SourceRun(rec[0].Candidates[0].Source)
	if !ok || runID != resA.RunID || turn != resA.Record.Manifest.TurnNumber {
		t.Fatalf("the memory's source %q does not name A's run %s", rec[0].Candidates[0].Source, resA.RunID)
	}
	got, run, err := store.LoadRecord(ctx, st, runID)
	must(t, err)
	if run.Answer != resA.Answer || got.Manifest.RunID != resA.RunID {
		t.Errorf("walking back reached run %s answering %q, want A's %q", got.Manifest.RunID, run.Answer, resA.Answer)
	}

	_, err = mem.Remember(ctx, resB)
	var fb *retrieval.FeedbackError
	if !asFeedback(err, &fb) || fb.Passages[0] != entry.ID {
		t.Errorf("remembering B into the memory it was answered from: err = %v, want a FeedbackError naming %s", err, entry.ID)
	}
	ps, _ := mem.Corpus().Passages(ctx)
	if len(ps) != 1 {
		t.Errorf("the memory holds %d entries after the refusal, want 1", len(ps))
	}
}

func scores(ss []retrieval.Scored) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%s:%.3f", s.ID, s.Score)
	}
	return out
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func asFeedback(err error, fb **retrieval.FeedbackError) bool { return errors.As(err, fb) }
