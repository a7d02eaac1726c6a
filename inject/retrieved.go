// Retrieved units: passages a retrieval picks per evaluation, each its own unit.

package inject

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/flow"
)

// The kinds of retrieved units: a passage of a document corpus, and an entry
// of a memory written by an earlier conversation.
const (
	KindRAG    Kind = "rag"
	KindMemory Kind = "memory"
)

// TriggerRetrieved is the trigger of a passage unit: it fires when the
// retrieval it belongs to picks it in this iteration.
const TriggerRetrieved TriggerKind = "retrieved"

// Retrieval runs one query per evaluation and says which passages it
// picked. Package retrieval implements it; a unit built with Passage points
// at one.
type Retrieval interface {
	// Name identifies the retrieval in the record; the units of one agent
	// must not share a name between two different retrievals.
	Name() string
	// Retrieve derives the query from r (reading state only through r, so
	// the reads are recorded) and returns the record of that query. It
	// reports a failure in Retrieved.Error rather than panicking.
	Retrieve(ctx context.Context, r flow.Reader) Retrieved
}

// Retrieved is the record of one query: what was asked, every candidate the
// index returned with its score, which were picked and which were dropped
// and why, the character budget spent, and the corpus's coverage declaration
// (a coverage ledger in wire form). Its field names are wire facts.
type Retrieved struct {
	Retrieval  string          `json:"retrieval"`
	Query      string          `json:"query"`
	Candidates []Candidate     `json:"candidates"`
	TopK       int             `json:"topK,omitempty"`
	Threshold  *float64        `json:"threshold,omitempty"`
	Budget     int             `json:"budget,omitempty"`
	Spent      int             `json:"spent"`
	Coverage   json.RawMessage `json:"coverage,omitempty"`
	Error      string          `json:"error,omitempty"`
}

// The reasons a candidate was dropped. Their strings are wire facts.
const (
	DropThreshold = "threshold" // its score was below the threshold
	DropTopK      = "top-k"     // better candidates filled the top K
	DropBudget    = "budget"    // its text did not fit the budget left
	// DropNoUnit: the agent has no unit for the passage (an ablation removed
	// it, or it entered the corpus after the agent was built).
	DropNoUnit = "no-unit"
)

// Candidate is one passage the index returned for a query. Rank counts from
// 1 in score order; Picked says it was placed, Dropped says why not.
type Candidate struct {
	ID      string  `json:"id"`
	Source  string  `json:"source,omitempty"`
	Score   float64 `json:"score"`
	Rank    int     `json:"rank"`
	Chars   int     `json:"chars"`
	Picked  bool    `json:"picked"`
	Dropped string  `json:"dropped,omitempty"`
}

// RetrievalEvidence is a passage unit's trigger evidence: the query of its
// retrieval and, when the passage was a candidate, its row. The first
// passage unit of a retrieval in an evaluation also carries the whole
// record, so each query is recorded once.
type RetrievalEvidence struct {
	Retrieval string     `json:"retrieval"`
	Query     string     `json:"query"`
	Candidate *Candidate `json:"candidate,omitempty"`
	Record    *Retrieved `json:"record,omitempty"`
}

// Passage builds the unit of one passage of a retrieval: kind is KindRAG or
// KindMemory, id is the passage's id, text the passage as sent. The unit
// fires in an iteration when from picks it. It refuses what Fact refuses, a
// nil retrieval, another kind, and a trigger option.
func Passage(kind Kind, id, text string, from Retrieval, opts ...Option) (*Unit, error) {
	u := build(kind, id, text, TriggerRetrieved, Rule{}, opts)
	u.retrieval = from
	switch {
	case u.err != nil:
	case kind != KindRAG && kind != KindMemory:
		u.fail(fmt.Sprintf("passage: kind %q is not %q or %q", kind, KindRAG, KindMemory))
	case from == nil:
		u.fail("passage: the retrieval is nil")
	case u.trig != TriggerRetrieved:
		u.fail("passage: a passage fires when its retrieval picks it; drop the trigger option")
	}
	return u.result()
}

// retrievals runs each retrieval once per evaluation, on first use, and
// remembers which unit carries its record.
type retrievals struct {
	ctx   context.Context
	r     Reader
	units []*Unit
	done  map[string]*retrievedRun
}

type retrievedRun struct {
	rec   Retrieved
	reads []KeyRead
	byID  map[string]int
	owner bool // the record was handed to a unit already
}

func (rs *retrievals) evaluate(u *Unit) Evidence {
	name := u.retrieval.Name()
	run, ok := rs.done[name]
	if !ok {
		run = rs.run(u.retrieval)
		rs.done[name] = run
	}
	ev := Evidence{Kind: TriggerRetrieved, Label: name, Reads: run.reads, Error: run.rec.Error}
	re := &RetrievalEvidence{Retrieval: name, Query: run.rec.Query}
	if i, ok := run.byID[u.id]; ok {
		c := run.rec.Candidates[i]
		re.Candidate = &c
		matched := c.Picked
		ev.Matched = &matched
	} else {
		matched := false
		ev.Matched = &matched
	}
	if !run.owner {
		run.owner = true
		rec := run.rec
		re.Record = &rec
	}
	ev.Retrieval = re
	return ev
}

func (rs *retrievals) run(ret Retrieval) (run *retrievedRun) {
	tr := &trackingReader{r: rs.r}
	run = &retrievedRun{}
	defer func() {
		if p := recover(); p != nil {
			run.rec = Retrieved{Retrieval: ret.Name(), Error: fmt.Sprintf("the retrieval panicked: %v", p)}
		}
		run.reads = tr.reads
		if run.reads == nil {
			run.reads = []KeyRead{}
		}
		if run.rec.Candidates == nil {
			run.rec.Candidates = []Candidate{}
		}
		run.byID = make(map[string]int, len(run.rec.Candidates))
		for i, c := range run.rec.Candidates {
			run.byID[c.ID] = i
		}
	}()
	ctx := rs.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	run.rec = ret.Retrieve(ctx, tr)
	if run.rec.Retrieval == "" {
		run.rec.Retrieval = ret.Name()
	}
	rs.dropMissing(ret.Name(), &run.rec)
	return run
}

// dropMissing marks as dropped the picked candidates the agent has no unit
// for, and takes their text off the budget spent: they were not sent.
func (rs *retrievals) dropMissing(name string, rec *Retrieved) {
	have := map[string]bool{}
	for _, u := range rs.units {
		if u.retrieval != nil && u.retrieval.Name() == name {
			have[u.id] = true
		}
	}
	cands := make([]Candidate, len(rec.Candidates))
	copy(cands, rec.Candidates)
	for i, c := range cands {
		if c.Picked && !have[c.ID] {
			cands[i].Picked = false
			cands[i].Dropped = DropNoUnit
			rec.Spent -= c.Chars
		}
	}
	rec.Candidates = cands
}
