// Package reqspans resolves a model call's request spans from a commit log: a call's llmRequest
// value stores only the spans it does not share with the call before it, so readers that hold a
// bare log (explain) rebuild the whole list here. Users read it through record.Record.RequestSpans.
package reqspans

import (
	"slices"

	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/llm"
)

// Of returns every byte span of req, a model call's llmRequest
// value in log: the spans it shares with the calls before it (SpansKept of
// them, the previous call's first ones), then its own. A value with
// SpansKept 0, or one log cannot resolve, gives its own Spans.
func Of(log *flow.Record, req state.LLMRequest) []llm.Span {
	if req.SpansKept == 0 || log == nil {
		return slices.Clone(req.Spans)
	}
	var calls []state.LLMRequest
	for _, c := range log.Commits {
		for _, op := range c.Ops {
			if op.Key == state.KeyLLMRequest.KeyName() && op.Verb == flow.VerbSet {
				if v, ok := op.Value.(state.LLMRequest); ok {
					calls = append(calls, v)
				}
			}
		}
	}
	at := slices.IndexFunc(calls, func(c state.LLMRequest) bool {
		return c.Iteration == req.Iteration && c.Request.Sha256 == req.Request.Sha256 && c.SpansKept == req.SpansKept && len(c.Spans) == len(req.Spans)
	})
	if at < 0 {
		return slices.Clone(req.Spans)
	}
	spans := slices.Clone(calls[0].Spans)
	for i := 1; i <= at; i++ {
		c := calls[i]
		if c.SpansKept > len(spans) {
			spans = nil // not a chain this log can resolve: the call's own
			c.SpansKept = 0
		}
		spans = append(spans[:c.SpansKept:c.SpansKept], c.Spans...)
	}
	return spans
}
