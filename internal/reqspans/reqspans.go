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
	// The calls are folded in log order into one list of our own, until
	// the call that is req. A call keeps the first SpansKept spans of the
	// list as the call before it left it and adds its own after them, so
	// the list is cut and appended to in place: each span is copied about
	// once, not once per later call.
	var spans []llm.Span
	first := true
	for _, c := range log.Commits {
		for _, op := range c.Ops {
			if op.Key != state.KeyLLMRequest.KeyName() || op.Verb != flow.VerbSet {
				continue
			}
			v, ok := op.Value.(state.LLMRequest)
			if !ok {
				continue
			}
			kept := v.SpansKept
			if first || kept > len(spans) {
				// The first call stands alone; so does a call that keeps
				// more than the chain has (not a chain this log resolves).
				kept = 0
			}
			first = false
			spans = append(spans[:kept], v.Spans...)
			if v.Iteration == req.Iteration && v.Request.Sha256 == req.Request.Sha256 && v.SpansKept == req.SpansKept && len(v.Spans) == len(req.Spans) {
				return spans
			}
		}
	}
	return slices.Clone(req.Spans)
}
