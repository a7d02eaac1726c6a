// Passage units: one query per evaluation, the record on the first passage
// only, a panicking retrieval recorded, a picked passage without a unit
// dropped.

package contextunits_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/agentfootprint/agentfootprint-go/internal/contextunits"
)

// fixed picks the ids it is given and counts its queries.
type fixed struct {
	name    string
	picks   []inject.Candidate
	calls   int
	panicky bool
}

func (f *fixed) Name() string { return f.name }

func (f *fixed) Retrieve(ctx context.Context, r flow.Reader) inject.Retrieved {
	f.calls++
	if f.panicky {
		panic("index gone")
	}
	v, _ := r.Get("userMessage")
	q, _ := v.(string)
	return inject.Retrieved{Query: q, Candidates: append([]inject.Candidate(nil), f.picks...), Spent: 10}
}

type kvReader map[string]any

func (m kvReader) Get(k string) (any, bool) { v, ok := m[k]; return v, ok }
func (m kvReader) Has(k string) bool        { _, ok := m[k]; return ok }
func (m kvReader) WriterOf(k string) (string, int, bool) {
	if _, ok := m[k]; ok {
		return "seed#0", 0, true
	}
	return "", -1, false
}

func TestPassageEvaluation(t *testing.T) {
	r := &fixed{name: "kb", picks: []inject.Candidate{
		{ID: "a", Score: 0.9, Rank: 1, Chars: 4, Picked: true},
		{ID: "gone", Score: 0.8, Rank: 2, Chars: 6, Picked: true},
		{ID: "b", Score: 0.1, Rank: 3, Chars: 4, Dropped: inject.DropThreshold},
	}}
	a := inject.Must(inject.Passage(inject.KindRAG, "a", "aaaa", r))
	b := inject.Must(inject.Passage(inject.KindRAG, "b", "bbbb", r))
	c := inject.Must(inject.Passage(inject.KindMemory, "c", "cccc", r))
	es := contextunits.Evaluate([]*inject.Unit{a, b, c}, kvReader{"userMessage": "hello"}, contextunits.Env{Iteration: 1})
	if r.calls != 1 {
		t.Fatalf("%d queries for one evaluation", r.calls)
	}
	if !es[0].Active || es[0].Placed == nil || es[1].Active || es[2].Active {
		t.Errorf("active: %v %v %v", es[0].Active, es[1].Active, es[2].Active)
	}
	rec := es[0].Trigger.Retrieval.Record
	if rec == nil || es[1].Trigger.Retrieval.Record != nil || es[2].Trigger.Retrieval.Record != nil {
		t.Fatalf("the record must ride on the first passage only")
	}
	if rec.Query != "hello" || rec.Retrieval != "kb" || rec.Candidates[1].Dropped != inject.DropNoUnit || rec.Spent != 4 {
		t.Errorf("record: %+v", rec)
	}
	if got := es[0].Trigger.Reads; len(got) != 1 || got[0].Key != "userMessage" || got[0].Writer != "seed#0" {
		t.Errorf("reads: %+v", got)
	}
	if es[2].Trigger.Retrieval.Candidate != nil {
		t.Errorf("c was no candidate, got %+v", es[2].Trigger.Retrieval.Candidate)
	}
	if e := contextunits.CatalogEntry(a); e.Trigger.Kind != inject.TriggerRetrieved || e.Trigger.Label != "kb" || e.Kind != "rag" {
		t.Errorf("catalog entry: %+v", e)
	}
}

func TestPanickingRetrieval(t *testing.T) {
	r := &fixed{name: "kb", panicky: true}
	a := inject.Must(inject.Passage(inject.KindRAG, "a", "aaaa", r))
	es := contextunits.Evaluate([]*inject.Unit{a}, kvReader{}, contextunits.Env{})
	if es[0].Active || !strings.Contains(es[0].Trigger.Error, "index gone") || es[0].Trigger.Retrieval.Record == nil {
		t.Errorf("entry: %+v", es[0])
	}
}
