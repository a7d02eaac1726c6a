package record

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/agent/internal/lazyevent"
	"github.com/agentfootprint/agentfootprint-go/event"
)

// Events gives back every event as it was appended, whatever its meta
// shares with its neighbours, and encodes as the slice of them does.
func TestEventsRebuildWhatWasAppended(t *testing.T) {
	one, two := 1, 2
	turn := 0
	path := []string{"triage"}
	evs := []event.Event{
		{Type: event.AgentTurnStart, Payload: event.TurnStart{TurnNumber: 1, MessageChars: 2},
			Meta: event.Meta{RunID: "r1", RuntimeStageID: "seed#0", WallClockMs: 10, CompositionPath: path, SessionID: "s"}},
		{Type: event.AgentIterationStart, Payload: event.IterationStart{IterIndex: 1},
			Meta: event.Meta{RunID: "r1", RuntimeStageID: "call-llm#3", WallClockMs: 11, RunOffsetMs: 1, IterIndex: &one, CompositionPath: path, SessionID: "s"}},
		// The same run in a subflow, then a new path of equal content.
		{Type: event.ToolsStart, Payload: json.RawMessage(`{"x":1}`),
			Meta: event.Meta{RunID: "r1", RuntimeStageID: "sf-results/verify#9", SubflowPath: "sf-results", WallClockMs: 12, RunOffsetMs: 2, IterIndex: &two, CompositionPath: []string{"triage"}, SessionID: "s"}},
		// Back to the first run's top level.
		{Type: event.AgentIterationEnd, Payload: event.IterationEnd{IterIndex: 2},
			Meta: event.Meta{RunID: "r1", RuntimeStageID: "tool-calls#4", WallClockMs: 13, RunOffsetMs: 3, IterIndex: &two, CompositionPath: path, SessionID: "s"}},
		// Another run, another caller, a turn index, no path at all.
		{Type: event.ErrorFatal, Payload: event.ErrorFatalPayload{Error: "boom", Stage: "call-llm", Scope: "run"},
			Meta: event.Meta{RunID: "r2", RuntimeStageID: "call-llm#4", TurnIndex: &turn, TraceID: "t", SpanID: "sp", Principal: "p", Tenant: "x"}},
		// An empty path is not a missing one.
		{Type: event.AgentTurnEnd, Meta: event.Meta{RunID: "r2", CompositionPath: []string{}}},
		{Type: event.AgentTurnEnd, Meta: event.Meta{RunID: "r2", CompositionPath: []string{}, TurnIndex: &turn}},
	}
	var l Events
	l.Grow(2)
	for _, e := range evs {
		l.Append(e)
	}
	if l.Len() != len(evs) {
		t.Fatalf("Len = %d, want %d", l.Len(), len(evs))
	}
	if d := cmp.Diff(evs, l.Slice()); d != "" {
		t.Errorf("Slice differs (-appended +rebuilt):\n%s", d)
	}
	for i, e := range l.All() {
		if d := cmp.Diff(evs[i], e); d != "" {
			t.Errorf("All: event %d differs:\n%s", i, d)
		}
	}
	if d := cmp.Diff(evs[4], l.At(4)); d != "" {
		t.Errorf("At(4) differs:\n%s", d)
	}
	want, _ := json.Marshal(evs)
	got, err := json.Marshal(l)
	if err != nil || string(got) != string(want) {
		t.Errorf("JSON = %s, %v\nwant %s", got, err, want)
	}
	// The first two events share one copy of their run-wide meta; the
	// subflow's event has one of its own, and the top level's next event
	// goes back to the first.
	if l.list[0].shared != l.list[1].shared || l.list[1].shared == l.list[2].shared || l.list[3].shared != l.list[0].shared {
		t.Error("events of one run, caller and subflow do not share their meta")
	}
	if l.list[4].shared == l.list[3].shared || l.list[5].shared == l.list[4].shared || l.list[6].shared == l.list[5].shared {
		t.Error("events with other run-wide meta share it")
	}
	var none Events
	if b, _ := json.Marshal(none); string(b) != "[]" || none.Slice() != nil || none.Len() != 0 {
		t.Errorf("the empty list: JSON %s, Slice %v", b, none.Slice())
	}
}

// A payload kept in typed form reads back as its value, on every read, and
// encodes as that value does.
func TestEventsBoxTypedPayloadsWhenRead(t *testing.T) {
	slot := &lazyevent.Slot[event.RouteDecided]{V: event.RouteDecided{Chosen: "final", Label: "the model answered"}}
	var l Events
	l.Append(event.Event{Type: event.AgentRouteDecided, Payload: slot, Meta: event.Meta{RunID: "r1"}})
	for i, ev := range l.All() {
		if d := cmp.Diff(any(slot.V), ev.Payload); d != "" {
			t.Errorf("event %d payload (-want +got):\n%s", i, d)
		}
	}
	if d := cmp.Diff(l.At(0), l.Slice()[0]); d != "" {
		t.Errorf("At and Slice differ:\n%s", d)
	}
	got, _ := json.Marshal(l)
	want, _ := json.Marshal([]event.Event{{Type: event.AgentRouteDecided, Payload: slot.V, Meta: event.Meta{RunID: "r1"}}})
	if string(got) != string(want) {
		t.Errorf("JSON = %s\nwant %s", got, want)
	}
}

// A long list whose events repeat and alternate their types, stages,
// subflows, iterations and run-wide meta rebuilds event by event.
func TestEventsRebuildALongMixedRun(t *testing.T) {
	names := []event.Name{event.AgentTurnStart, event.AgentIterationStart, event.ContextEvaluated, event.LLMRequest,
		event.LLMResponse, event.AgentRouteDecided, event.ToolsStart, event.ToolsResult, event.AgentIterationEnd}
	var want []event.Event
	var l Events
	path := []string{"agent"}
	for i := range 70_000 {
		iter := i / 9
		m := event.Meta{RunID: "r", RuntimeStageID: fmt.Sprintf("stage#%d", i/3), WallClockMs: int64(i), RunOffsetMs: int64(i / 2),
			CompositionPath: path, IterIndex: &iter}
		if i%5 == 0 {
			m.SubflowPath = fmt.Sprintf("sf-%d", i%3)
		}
		if i%7 == 0 {
			m.IterIndex = nil
		}
		if i%11 == 0 {
			m.Tenant = "other"
		}
		ev := event.Event{Type: names[(i*7)%len(names)], Payload: i, Meta: m}
		if i%13 == 0 {
			ev.Type = event.Name(fmt.Sprintf("custom.%d", i%40))
		}
		want = append(want, ev)
		l.Append(ev)
	}
	got := l.Slice()
	if len(got) != len(want) {
		t.Fatalf("%d events, want %d", len(got), len(want))
	}
	for i := range want {
		if d := cmp.Diff(want[i], got[i]); d != "" {
			t.Fatalf("event %d differs (-appended +rebuilt):\n%s", i, d)
		}
	}
}

// AppendShared keeps the shared meta it is handed, so its events read back
// with that meta and their own stage, times and iteration, and an Append
// after it finds the same meta instead of keeping another copy.
func TestEventsAppendShared(t *testing.T) {
	three := 3
	shared := &event.Meta{RunID: "r1", SubflowPath: "sf", CompositionPath: []string{"a"}, SessionID: "s", Principal: "p", Tenant: "t",
		// Ignored: each event's own.
		RuntimeStageID: "ignored", WallClockMs: 99}
	var l Events
	l.AppendShared(shared, event.ToolsStart, event.ToolsStartPayload{ToolName: "x"}, "tool-calls#4", 10, 1, &three)
	l.Append(event.Event{Type: event.ToolsResult, Meta: event.Meta{RunID: "r1", SubflowPath: "sf", CompositionPath: []string{"a"},
		SessionID: "s", Principal: "p", Tenant: "t", RuntimeStageID: "tool-calls#4", WallClockMs: 12, RunOffsetMs: 3}})
	l.AppendShared(shared, event.AgentIterationEnd, nil, "tool-calls#4", 13, 4, nil)
	want := []event.Event{
		{Type: event.ToolsStart, Payload: event.ToolsStartPayload{ToolName: "x"}, Meta: event.Meta{RunID: "r1", SubflowPath: "sf",
			CompositionPath: []string{"a"}, SessionID: "s", Principal: "p", Tenant: "t", RuntimeStageID: "tool-calls#4", WallClockMs: 10, RunOffsetMs: 1, IterIndex: &three}},
		{Type: event.ToolsResult, Meta: event.Meta{RunID: "r1", SubflowPath: "sf", CompositionPath: []string{"a"},
			SessionID: "s", Principal: "p", Tenant: "t", RuntimeStageID: "tool-calls#4", WallClockMs: 12, RunOffsetMs: 3}},
		{Type: event.AgentIterationEnd, Meta: event.Meta{RunID: "r1", SubflowPath: "sf", CompositionPath: []string{"a"},
			SessionID: "s", Principal: "p", Tenant: "t", RuntimeStageID: "tool-calls#4", WallClockMs: 13, RunOffsetMs: 4}},
	}
	if d := cmp.Diff(want, l.Slice()); d != "" {
		t.Errorf("events differ (-want +got):\n%s", d)
	}
	if len(l.shared) != 1 {
		t.Errorf("kept %d shared metas, want 1", len(l.shared))
	}
}
