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

// testGroup is a group of events as the agent keeps one: a stage and a
// payload for each of its events.
type testGroup struct {
	types  []event.Name
	stages []string
	reads  int
}

func (g *testGroup) GroupEvent(_ lazyevent.Token, k int) (event.Name, string, any) {
	g.reads++
	return g.types[k], g.stages[k], event.IterationEnd{IterIndex: k, ToolCallCount: g.reads}
}

// Grouped events read back with their group's meta and iteration, their
// own times, and the type, stage and payload the group gives them, built on
// each read; they interleave with events kept on their own in the order
// they were appended, and a group or kind that does not exist adds nothing.
func TestEventsReadGroupsAsTheyWereKept(t *testing.T) {
	two := 2
	shared := &event.Meta{RunID: "r1", CompositionPath: []string{"a"}, SessionID: "s"}
	g := &testGroup{types: []event.Name{event.AgentIterationStart, event.AgentIterationEnd}, stages: []string{"call-llm#2", "tool-calls#4"}}
	var l Events
	l.GrowGrouped(4, 1)
	l.Append(event.Event{Type: event.AgentTurnStart, Meta: event.Meta{RunID: "r1", CompositionPath: []string{"a"}, SessionID: "s", WallClockMs: 5}})
	n := l.AddGroup(g, shared, &two)
	if n != 0 {
		t.Fatalf("AddGroup = %d, want 0", n)
	}
	if !l.AppendGrouped(n, 0, 10, 1) {
		t.Fatal("AppendGrouped refused event 0 of the group")
	}
	l.AppendShared(shared, event.ToolsStart, "between", "tool-calls#4", 11, 2, &two)
	if !l.AppendGrouped(n, 1, 12, 3) {
		t.Fatal("AppendGrouped refused event 1 of the group")
	}
	for _, bad := range [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 254}} {
		if l.AppendGrouped(bad[0], bad[1], 0, 0) {
			t.Errorf("AppendGrouped(%d, %d) added an event", bad[0], bad[1])
		}
	}
	if l.AddGroup(nil, shared, nil) != -1 || l.AddGroup(g, nil, nil) != -1 {
		t.Error("AddGroup took a nil group or meta")
	}
	meta := func(stage string, wall, offset int64, it *int) event.Meta {
		return event.Meta{RunID: "r1", CompositionPath: []string{"a"}, SessionID: "s", RuntimeStageID: stage, WallClockMs: wall, RunOffsetMs: offset, IterIndex: it}
	}
	want := []event.Event{
		{Type: event.AgentTurnStart, Meta: meta("", 5, 0, nil)},
		{Type: event.AgentIterationStart, Payload: event.IterationEnd{IterIndex: 0, ToolCallCount: 1}, Meta: meta("call-llm#2", 10, 1, &two)},
		{Type: event.ToolsStart, Payload: "between", Meta: meta("tool-calls#4", 11, 2, &two)},
		{Type: event.AgentIterationEnd, Payload: event.IterationEnd{IterIndex: 1, ToolCallCount: 2}, Meta: meta("tool-calls#4", 12, 3, &two)},
	}
	if d := cmp.Diff(want, l.Slice()); d != "" {
		t.Errorf("events differ (-want +got):\n%s", d)
	}
	// Read again: the group builds the payloads anew.
	if got := l.At(3).Payload; got != (event.IterationEnd{IterIndex: 1, ToolCallCount: 3}) {
		t.Errorf("a second read of event 3 = %v, want it built again", got)
	}
	// The turn start's meta, and the group's, which the event appended
	// with it shares.
	if l.Len() != 4 || len(l.shared) != 2 {
		t.Errorf("Len = %d with %d shared metas, want 4 and 2", l.Len(), len(l.shared))
	}
	js, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	var types []struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(js, &types); err != nil || len(types) != 4 || types[1].Type != string(event.AgentIterationStart) || types[3].Type != string(event.AgentIterationEnd) {
		t.Errorf("JSON = %s (%v)", js, err)
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
