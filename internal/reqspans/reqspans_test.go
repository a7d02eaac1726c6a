// Tests of rebuilding a model call's spans from the calls before it in a log.

package reqspans

import (
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/google/go-cmp/cmp"
)

func span(unit string, start int) llm.Span {
	return llm.Span{Unit: unit, Kind: llm.SpanKind("text"), Start: start, End: start + 5}
}

func call(iter int, sha string, kept int, spans ...llm.Span) state.LLMRequest {
	return state.LLMRequest{Iteration: iter, Request: state.CapturedBody{Sha256: sha}, Spans: spans, SpansKept: kept}
}

func TestOf(t *testing.T) {
	first := call(1, "a", 0, span("system", 10), span("history/0", 40))
	second := call(2, "b", 1, span("history/1", 60))    // keeps first's system span
	third := call(3, "c", 2, span("history/2", 90))     // keeps second's two
	stranger := call(9, "z", 1, span("history/9", 300)) // not in the log
	greedy := call(4, "d", 5, span("history/3", 120))   // keeps more than the chain has
	log := &flow.Record{Commits: []*flow.Commit{
		{Idx: 0},
		{Idx: 1, Ops: []flow.Op{state.KeyLLMRequest.SetOp(first)}},
		{Idx: 2, Ops: []flow.Op{{Key: "other", Verb: flow.VerbSet, Value: 1}, state.KeyLLMRequest.SetOp(second)}},
		{Idx: 3, Ops: []flow.Op{state.KeyLLMRequest.SetOp(third)}},
		{Idx: 4, Ops: []flow.Op{state.KeyLLMRequest.SetOp(greedy)}},
	}}
	for _, c := range []struct {
		name string
		log  *flow.Record
		req  state.LLMRequest
		want []llm.Span
	}{
		{"first call: its own", log, first, first.Spans},
		{"second: first's system span, then its own", log, second, []llm.Span{span("system", 10), span("history/1", 60)}},
		{"third: the chain resolved", log, third, []llm.Span{span("system", 10), span("history/1", 60), span("history/2", 90)}},
		{"a call the log does not hold: its own", log, stranger, stranger.Spans},
		{"no log: its own", nil, third, third.Spans},
		{"a chain the log cannot resolve: its own", log, greedy, greedy.Spans},
	} {
		if diff := cmp.Diff(c.want, Of(c.log, c.req)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, diff)
		}
	}
}
