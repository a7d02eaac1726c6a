// Passage units: what Passage refuses. Their evaluation is tested in
// internal/contextunits.

package inject_test

import (
	"context"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/inject"
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

func TestPassageRefusals(t *testing.T) {
	r := &fixed{name: "kb"}
	for name, mk := range map[string]func() (*inject.Unit, error){
		"kind": func() (*inject.Unit, error) { return inject.Passage(inject.KindFact, "p", "t", r) },
		"nil":  func() (*inject.Unit, error) { return inject.Passage(inject.KindRAG, "p", "t", nil) },
		"trigger": func() (*inject.Unit, error) {
			return inject.Passage(inject.KindRAG, "p", "t", r, inject.WithToolReturn("x"))
		},
		"id": func() (*inject.Unit, error) { return inject.Passage(inject.KindRAG, "P Q", "t", r) },
	} {
		if _, err := mk(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
