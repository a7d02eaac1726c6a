package agent_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/internal/agenttest"
	"github.com/agentfootprint/agentfootprint-go/agent/internal/lazyevent"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
)

// typedEvents are the events whose payloads the agent keeps typed.
var typedEvents = []event.Name{event.ContextEvaluated, event.LLMRequest, event.LLMResponse, event.AgentRouteDecided,
	event.AgentIterationEnd, event.ToolsStart, event.ToolsResult}

// The record keeps the payloads of its most frequent events in typed form
// when no one listens, and boxes them when read. Read back, they are the
// values a listener is handed: the same types and fields, event by event,
// and the same JSON.
func TestTypedPayloadsReadAsListenersSeeThem(t *testing.T) {
	run := func(listen bool) ([]event.Event, []event.Event, []byte) {
		t.Helper()
		at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
		clock := func() time.Time { at = at.Add(time.Millisecond); return at }
		p := scripted.New(ratioReplies()...)
		a, err := agent.New(p, agent.WithTools(agenttest.RatioTool()), agent.WithSystemPrompt("You triage incidents."),
			agent.WithMaxIterations(ratioCalls+1), agent.WithClock(clock))
		if err != nil {
			t.Fatal(err)
		}
		var heard []event.Event
		if listen {
			// Each typed event by name: a listener on every event would
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
	if len(quiet) < 80 {
		t.Fatalf("the run kept %d events, want the usual 88", len(quiet))
	}
	for i, ev := range quiet {
		if _, lazy := ev.Payload.(lazyevent.Payload); lazy {
			t.Fatalf("event %d (%s) reads back as its typed slot, not its value", i, ev.Type)
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
	if len(typed) < 70 {
		t.Errorf("%d typed events, want 7 an iteration", len(typed))
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
