// Tests of rebuilding a model call's spans from the calls before it in a log.

package reqspans

import (
	"fmt"
	"slices"
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

// TestOfLongChain resolves every call of a chain whose calls keep fewer
// spans than the list holds (a window dropped old messages), so the list is
// cut back and refilled, and checks the log's own values are left as they
// were.
func TestOfLongChain(t *testing.T) {
	var log flow.Record
	var calls []state.LLMRequest
	var want [][]llm.Span
	var list []llm.Span
	for i := range 60 {
		kept := 0
		switch {
		case i == 0:
		case i%7 == 0:
			kept = len(list) / 2 // drops the newer half
		default:
			kept = len(list)
		}
		own := []llm.Span{span(fmt.Sprintf("history/%d", i), 100*i), span(fmt.Sprintf("tool/%d", i), 100*i+50)}
		c := call(i+1, fmt.Sprintf("h%d", i), kept, own...)
		list = append(slices.Clone(list[:kept]), own...)
		calls = append(calls, c)
		want = append(want, list)
		log.Commits = append(log.Commits, &flow.Commit{Idx: i, Ops: []flow.Op{state.KeyLLMRequest.SetOp(c)}})
	}
	before := make([][]llm.Span, len(calls))
	for i, c := range calls {
		before[i] = slices.Clone(c.Spans)
	}
	for i, c := range calls {
		if diff := cmp.Diff(want[i], Of(&log, c)); diff != "" {
			t.Errorf("call %d (-want +got):\n%s", i, diff)
		}
	}
	for i, cm := range log.Commits {
		got := cm.Ops[0].Value.(state.LLMRequest).Spans
		if diff := cmp.Diff(before[i], got); diff != "" {
			t.Errorf("Of changed the log's call %d (-before +after):\n%s", i, diff)
		}
	}
}
