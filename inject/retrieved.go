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
