// This file builds the record of a run whose agent has retrieval units, so the
// lens can be tested on a real retrieval record.

package lenstest

import (
	"context"
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/retrieval"
)

// retrievalQuestion is what the person asks the retrieval run; it is also the
// query of its one retrieval.
const retrievalQuestion = "How do I restart checkout?"

// RetrievalCorpus names the retrieval run's corpus.
const RetrievalCorpus = "runbook"

// Retrieval runs an agent whose context units are the passages of a small
// runbook corpus (top 2, threshold 0.1, budget 120 characters): the two best
// passages are picked, a third is dropped by the threshold and a long one by
// the budget. The scripted model answers once.
func Retrieval(ctx context.Context) (*record.Record, error) {
	emb := &retrieval.HashEmbedder{Dims: 256}
	idx, err := retrieval.NewMemoryIndex(256)
	if err != nil {
		return nil, fmt.Errorf("lenstest: retrieval index: %w", err)
	}
	corpus, err := retrieval.NewCorpus(RetrievalCorpus, emb, idx,
		retrieval.WithCoverage(coverage.LedgerDecl{Checked: []coverage.Item{{What: "the checkout runbook"}}}))
	if err != nil {
		return nil, fmt.Errorf("lenstest: retrieval corpus: %w", err)
	}
	err = corpus.Add(ctx,
		retrieval.Passage{ID: "restart-checkout", Source: "runbook.md#restart", Text: "To restart checkout, drain the queue, then roll the pods."},
		retrieval.Passage{ID: "page-oncall", Source: "runbook.md#oncall", Text: "Page the on-call engineer before restarting checkout."},
		retrieval.Passage{ID: "checkout-history", Source: "runbook.md#history", Text: "Checkout was split from the monolith in 2024; restart checkout pods one zone at a time, never all zones together, and watch the error rate between zones."},
		retrieval.Passage{ID: "rotate-keys", Source: "runbook.md#keys", Text: "Payment keys rotate every 90 days."},
	)
	if err != nil {
		return nil, fmt.Errorf("lenstest: retrieval passages: %w", err)
	}
	units, err := retrieval.Units(ctx, corpus, retrieval.WithTopK(3), retrieval.WithThreshold(0.1), retrieval.WithBudget(120))
	if err != nil {
		return nil, fmt.Errorf("lenstest: retrieval units: %w", err)
	}
	a, err := agent.New(scripted.New(scripted.Reply{Content: "Drain the queue, page on-call, then roll the pods."}),
		agent.WithID("runbook-reader"), agent.WithUnits(units...))
	if err != nil {
		return nil, fmt.Errorf("lenstest: building agent runbook-reader: %w", err)
	}
	res, err := a.Run(ctx, agent.Input{Message: retrievalQuestion})
	if err != nil {
		return nil, fmt.Errorf("lenstest: the retrieval run: %w", err)
	}
	return res.Record, nil
}
