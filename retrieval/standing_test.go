// A corpus's coverage declaration reaches the standing and the limits block
// like a tool's: "the runbook holds nothing after March" makes the answer
// not-sure, with the corpus named.

package retrieval_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/honesty/assess"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/retrieval"
)

func TestCorpusCoverageReachesTheStanding(t *testing.T) {
	ctx := context.Background()
	emb := &retrieval.HashEmbedder{Dims: 128}
	idx, err := retrieval.NewMemoryIndex(128)
	if err != nil {
		t.Fatal(err)
	}
	runbook, err := retrieval.NewCorpus("runbook", emb, idx, retrieval.WithCoverage(coverage.LedgerDecl{
		Checked:     []coverage.Item{{What: "the payments runbook"}},
		CannotCover: []coverage.Item{{What: "incidents after March", Why: "the runbook was last edited in March"}},
	}))
	if err != nil {
		t.Fatal(err)
	}
	if err := runbook.Add(ctx, retrieval.Passage{ID: "restart-checkout", Source: "runbook.md", Text: "To restart checkout, drain the queue, then roll the pods."}); err != nil {
		t.Fatal(err)
	}
	units, err := retrieval.Units(ctx, runbook, retrieval.WithTopK(1))
	if err != nil {
		t.Fatal(err)
	}
	a, err := agent.New(scripted.New(scripted.Reply{Content: "Drain the queue, then roll the pods."}),
		agent.WithUnits(units...), agent.WithResultsLayer(), agent.WithLimitsBlock())
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Run(ctx, agent.Input{Message: "How do I restart checkout?"})
	if err != nil {
		t.Fatal(err)
	}
	st := res.Assessment
	if st.Standing != assess.StandingNotSure || len(st.Reasons) == 0 || st.Reasons[0].Reason != assess.ReasonCoverageGap {
		t.Fatalf("standing %+v, want not-sure with coverage-gap", st)
	}
	if !strings.Contains(res.Answer, "Cannot cover:\n- incidents after March — the runbook was last edited in March") {
		t.Errorf("the limits block does not say what the corpus cannot cover:\n%s", res.Answer)
	}
	// The row names the corpus as the tool that declared it.
	w := st.Reasons[0].Witness[0]
	if w.Key != "coverageDeclared" {
		t.Fatalf("coverage-gap witness %+v, want a coverageDeclared row", w)
	}
}
