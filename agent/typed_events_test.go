package agent_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/internal/agenttest"
	"github.com/agentfootprint/agentfootprint-go/agent/internal/lazyevent"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
)

// typedEvents are the events the agent keeps in an iteration's group when
// nobody listens to them.
var typedEvents = []event.Name{event.AgentIterationStart, event.ContextEvaluated, event.LLMRequest, event.LLMResponse,
	event.AgentRouteDecided, event.AgentIterationEnd, event.ToolsStart, event.ToolsResult}

// twoCallReplies asks for two tool calls a reply, so each batch's second
// tools.start and tools.result do not fit the iteration's group.
func twoCallReplies() []scripted.Reply {
	var rs []scripted.Reply
	for i := range 4 {
		rs = append(rs, scripted.Reply{ToolCalls: []llm.ToolCall{
			call(fmt.Sprintf("a%d", i), "service_status", `{"service":"checkout"}`),
			call(fmt.Sprintf("b%d", i), "service_status", `{"service":"search"}`),
		}})
	}
	return append(rs, scripted.Reply{Content: "Both are degraded."})
}

// The record keeps its most frequent events in an iteration's group when no
// one listens, and builds each when read. Read back, they are the events a
// listener is handed: the same types, fields and metas, event by event, and
// the same JSON. The second scenario has events that do not fit a group
// (a batch's second call), a window that drops history and a wrap-up.
func TestTypedPayloadsReadAsListenersSeeThem(t *testing.T) {
	for _, tc := range []struct {
		name    string
		replies func() []scripted.Reply
		opts    []agent.Option
		min     int
	}{
		{"one call an iteration", ratioReplies, []agent.Option{agent.WithMaxIterations(ratioCalls + 1)}, 88},
		{"two calls, a window and a wrap-up", twoCallReplies,
			[]agent.Option{agent.WithMaxIterations(3), agent.WithWindow(agent.Window{LastMessages: 3})}, 30},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkGroupedEvents(t, tc.replies, tc.opts, tc.min)
		})
	}
}

func checkGroupedEvents(t *testing.T, replies func() []scripted.Reply, opts []agent.Option, min int) {
	run := func(listen bool) ([]event.Event, []event.Event, []byte) {
		t.Helper()
		at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
		clock := func() time.Time { at = at.Add(time.Millisecond); return at }
		p := scripted.New(replies()...)
		a, err := agent.New(p, append([]agent.Option{agent.WithTools(agenttest.RatioTool()), agent.WithSystemPrompt("You triage incidents."),
			agent.WithClock(clock)}, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		var heard []event.Event
		if listen {
			// Each grouped event by name: a listener on every event would
			// also ask for the reply's tokens, which changes the run.
			for _, n := range typedEvents {
				a.MustOn(string(n), func(e event.Event) { heard = append(heard, e) })
			}
		}
		res, err := a.Run(context.Background(), agent.Input{Message: "What is broken?"})
		if err != nil {
			t.Fatal(err)
		}
		evs := res.Record.Events.Slice()
		for i := range evs {
			// Run ids are random; everything else is set by the clock and the script.
			evs[i].Meta.RunID = ""
		}
		js, err := res.Record.Events.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		return evs, heard, js
	}
	quiet, _, quietJSON := run(false)
	loud, heard, _ := run(true)
	if len(quiet) < min {
		t.Fatalf("the run kept %d events, want at least %d", len(quiet), min)
	}
	for i, ev := range quiet {
		if _, grouped := ev.Payload.(lazyevent.Group); grouped {
			t.Fatalf("event %d (%s) reads back as its group, not its payload", i, ev.Type)
		}
	}
	if d := cmp.Diff(loud, quiet); d != "" {
		t.Errorf("events kept with no listener differ from those kept with one (-listened +quiet):\n%s", d)
	}
	for i := range heard {
		heard[i].Meta.RunID = ""
	}
	var typed []event.Event
	for _, ev := range quiet {
		if slices.Contains(typedEvents, ev.Type) {
			typed = append(typed, ev)
		}
	}
	if len(typed) < min*3/4 {
		t.Errorf("%d grouped events, want most of the %d", len(typed), len(quiet))
	}
	if d := cmp.Diff(heard, typed); d != "" {
		t.Errorf("the record's events differ from what the listener was handed (-heard +recorded):\n%s", d)
	}
	// Two reads of one event give equal payloads.
	if d := cmp.Diff(quiet[3].Payload, quiet[3].Payload); d != "" {
		t.Error(d)
	}
	if len(quietJSON) < 1000 || quietJSON[0] != '[' {
		t.Errorf("events JSON = %.80s…", quietJSON)
	}
}
