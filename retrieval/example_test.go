// The runnable example of docs/RETRIEVAL.md.

package retrieval_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/retrieval"
)

// A corpus of runbook passages becomes context units: the person's message
// is the query, the best two passages are placed, and the record keeps every
// candidate with its score and why it was picked or dropped.
func Example() {
	ctx := context.Background()
	emb := &retrieval.HashEmbedder{Dims: 256} // offline and deterministic; see llm/embed for real models
	idx, _ := retrieval.NewMemoryIndex(256)   // or sqlitevec.Open / pgvec.Open
	runbook, err := retrieval.NewCorpus("runbook", emb, idx,
		retrieval.WithCoverage(coverage.LedgerDecl{
			Checked:     []coverage.Item{{What: "the payments runbook"}},
			CannotCover: []coverage.Item{{What: "incidents after March", Why: "the runbook was last edited in March"}},
		}))
	if err != nil {
		panic(err)
	}
	err = runbook.Add(ctx,
		retrieval.Passage{ID: "restart-checkout", Source: "runbook.md#checkout", Text: "To restart checkout, drain the queue, then roll the pods."},
		retrieval.Passage{ID: "rotate-keys", Source: "runbook.md#keys", Text: "Payment keys rotate every 90 days."},
		retrieval.Passage{ID: "page-oncall", Source: "runbook.md#oncall", Text: "Page the on-call engineer before restarting checkout."},
	)
	if err != nil {
		panic(err)
	}
	units, err := retrieval.Units(ctx, runbook, retrieval.WithTopK(2), retrieval.WithThreshold(0.1))
	if err != nil {
		panic(err)
	}
	model := scripted.Func(func(req *llm.Request, call int, seed int64) scripted.Reply {
		var placed []string
		for _, s := range req.System {
			placed = append(placed, s.Unit)
		}
		return scripted.Reply{Content: "Answered from " + strings.Join(placed, ", ")}
	})
	a, err := agent.New(model, agent.WithUnits(units...))
	if err != nil {
		panic(err)
	}
	res, err := a.Run(ctx, agent.Input{Message: "How do I restart checkout?"})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Answer)
	recs, _ := retrieval.Records(res.Record)
	for _, c := range recs[0].Candidates {
		fmt.Println(strings.TrimSpace(fmt.Sprintf("%d %-16s %.2f picked=%v %s", c.Rank, c.ID, c.Score, c.Picked, c.Dropped)))
	}
	// Output:
	// Answered from page-oncall, restart-checkout
	// 1 restart-checkout 0.53 picked=true
	// 2 page-oncall      0.29 picked=true
	// 3 rotate-keys      0.00 picked=false threshold
}
