package eventbus

import (
	"encoding/json"
	"sync"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/google/go-cmp/cmp"
)

func TestOnMatchesPatterns(t *testing.T) {
	tests := []struct {
		pattern string
		emit    event.Name
		want    bool
	}{
		{"*", event.ToolsResult, true},
		{"*", event.AgentTurnStart, true},
		{"agentfootprint.tools.*", event.ToolsResult, true},
		{"agentfootprint.tools.*", event.ToolsStart, true},
		{"agentfootprint.tools.*", event.ValidationArgsInvalid, false},
		{"agentfootprint.tools.*", event.AgentTurnEnd, false},
		{"agentfootprint.agent.*", event.AgentTurnEnd, true},
		{string(event.ToolsResult), event.ToolsResult, true},
		{string(event.ToolsResult), event.ToolsResultRefused, false},
		{"agentfootprint.tools.result_", event.ToolsResultRefused, false},
		{"agentfootprint.*", event.PauseResume, true},
	}
	for _, tt := range tests {
		t.Run(tt.pattern+"→"+string(tt.emit), func(t *testing.T) {
			var d Dispatcher
			var got []event.Name
			d.On(tt.pattern, func(e event.Event) { got = append(got, e.Type) })
			if h := d.HasListeners(tt.emit); h != tt.want {
				t.Errorf("HasListeners(%s) = %v, want %v", tt.emit, h, tt.want)
			}
			d.Emit(tt.emit, func() any { return 1 }, event.Meta{})
			if (len(got) == 1) != tt.want {
				t.Errorf("delivered %v, want delivered=%v", got, tt.want)
			}
		})
	}
}

func TestEmitBuildsPayloadOnlyWithListener(t *testing.T) {
	var d Dispatcher
	built := 0
	build := func() any { built++; return event.TurnStart{TurnNumber: 1} }
	d.Emit(event.AgentTurnStart, build, event.Meta{})
	if built != 0 {
		t.Fatalf("payload built %d times with no listener, want 0", built)
	}
	var got []event.Event
	stop := d.On(string(event.AgentTurnStart), func(e event.Event) { got = append(got, e) })
	d.On(string(event.AgentTurnStart), func(e event.Event) { got = append(got, e) })
	d.Emit(event.AgentTurnStart, build, event.Meta{RunID: "r1"})
	if built != 1 {
		t.Fatalf("payload built %d times for two listeners, want 1", built)
	}
	want := []event.Event{
		{Type: event.AgentTurnStart, Payload: event.TurnStart{TurnNumber: 1}, Meta: event.Meta{RunID: "r1"}},
		{Type: event.AgentTurnStart, Payload: event.TurnStart{TurnNumber: 1}, Meta: event.Meta{RunID: "r1"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("events (-want +got):\n%s", diff)
	}
	stop()
	stop()
	got = nil
	d.Emit(event.AgentTurnStart, build, event.Meta{})
	if len(got) != 1 {
		t.Fatalf("after unsubscribe got %d deliveries, want 1", len(got))
	}
}

func TestListenersRunInSubscriptionOrder(t *testing.T) {
	var d Dispatcher
	var order []string
	d.On("agentfootprint.tools.*", func(event.Event) { order = append(order, "domain") })
	d.On("*", func(event.Event) { order = append(order, "all") })
	d.On(string(event.ToolsResult), func(event.Event) { order = append(order, "exact") })
	d.Emit(event.ToolsResult, nil, event.Meta{})
	if diff := cmp.Diff([]string{"domain", "all", "exact"}, order); diff != "" {
		t.Fatalf("order (-want +got):\n%s", diff)
	}
}

func TestPanicBecomesFatalForOthers(t *testing.T) {
	var d Dispatcher
	var fatals []event.Event
	var after int
	d.On("*", func(e event.Event) {
		if e.Type == event.ErrorFatal {
			panic("fatal listener also broken")
		}
	})
	d.On(string(event.ToolsResult), func(event.Event) { panic("boom") })
	d.On(string(event.ErrorFatal), func(e event.Event) { fatals = append(fatals, e) })
	d.On(string(event.ToolsResult), func(event.Event) { after++ })
	d.Emit(event.ToolsResult, nil, event.Meta{RunID: "r"})
	want := []event.Event{{
		Type:    event.ErrorFatal,
		Payload: event.ErrorFatalPayload{Error: `listener "agentfootprint.tools.result" panicked on agentfootprint.tools.result: boom`, Stage: "observer", Scope: "agentfootprint.tools.result"},
		Meta:    event.Meta{RunID: "r"},
	}}
	if diff := cmp.Diff(want, fatals); diff != "" {
		t.Fatalf("fatal events (-want +got):\n%s", diff)
	}
	if after != 1 {
		t.Fatalf("listener after the panicking one ran %d times, want 1", after)
	}
	if p := d.Panics(); p != 2 {
		t.Fatalf("Panics() = %d, want 2 (the listener and the fatal listener)", p)
	}
}

func TestSubscribeDuringDispatchDoesNotDeadlock(t *testing.T) {
	var d Dispatcher
	var inner int
	var stopSelf func()
	stopSelf = d.On("*", func(e event.Event) {
		d.On("*", func(event.Event) { inner++ })
		stopSelf()
	})
	d.Emit(event.LLMToken, nil, event.Meta{})
	if inner != 0 {
		t.Fatalf("listener subscribed during a delivery heard that delivery %d times, want 0", inner)
	}
	d.Emit(event.LLMToken, nil, event.Meta{})
	if inner != 1 {
		t.Fatalf("second emit reached the new listener %d times, want 1", inner)
	}
}

func TestConcurrentUse(t *testing.T) {
	var d Dispatcher
	var wg sync.WaitGroup
	var mu sync.Mutex
	count := 0
	for i := 0; i < 8; i++ {
		wg.Add(2)
		go func() {
			defer wg.Done()
			stop := d.On("*", func(event.Event) { mu.Lock(); count++; mu.Unlock() })
			d.Emit(event.AgentIterationEnd, nil, event.Meta{})
			stop()
		}()
		go func() {
			defer wg.Done()
			d.Emit(event.AgentIterationStart, func() any { return event.IterationStart{IterIndex: 1} }, event.Meta{})
			_ = d.HasListeners(event.ToolsStart)
		}()
	}
	wg.Wait()
	if count < 8 {
		t.Fatalf("each subscriber heard its own emit: count %d, want >= 8", count)
	}
}

func TestEventJSONShape(t *testing.T) {
	e := event.Event{
		Type:    event.ToolsStart,
		Payload: event.ToolsStartPayload{ToolName: "search_logs", ToolCallID: "c1", Args: json.RawMessage(`{"service":"checkout"}`)},
		Meta:    event.Meta{RunID: "run-1", RuntimeStageID: "tool-calls#4", WallClockMs: 1700000000000, RunOffsetMs: 12, IterIndex: new(1), CompositionPath: []string{"agent"}},
	}
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"agentfootprint.tools.start","payload":{"toolName":"search_logs","toolCallId":"c1","args":{"service":"checkout"}},"meta":{"runId":"run-1","runtimeStageId":"tool-calls#4","subflowPath":"","wallClockMs":1700000000000,"runOffsetMs":12,"iterIndex":1,"compositionPath":["agent"]}}`
	if string(b) != want {
		t.Fatalf("JSON\n got %s\nwant %s", b, want)
	}
}

func TestUnsubscribeOtherDuringDispatch(t *testing.T) {
	var d Dispatcher
	var heard []string
	var stopB func()
	d.On("*", func(event.Event) { heard = append(heard, "a"); stopB() })
	stopB = d.On("*", func(event.Event) { heard = append(heard, "b") })
	d.On("*", func(event.Event) { heard = append(heard, "c") })
	d.Emit(event.ToolsStart, nil, event.Meta{})
	d.Emit(event.ToolsStart, nil, event.Meta{})
	if diff := cmp.Diff([]string{"a", "c", "a", "c"}, heard); diff != "" {
		t.Fatalf("deliveries (-want +got):\n%s", diff)
	}
}

func TestNilAndZeroDispatcher(t *testing.T) {
	var nilD *Dispatcher
	nilD.Emit(event.ToolsStart, func() any { panic("must not build") }, event.Meta{})
	nilD.Dispatch(event.Event{Type: event.ToolsStart})
	if nilD.HasListeners(event.ToolsStart) || nilD.Panics() != 0 {
		t.Fatal("a nil dispatcher reports listeners or panics")
	}
	var d Dispatcher
	d.On("*", nil)() // a nil listener subscribes nothing
	if d.HasListeners(event.ToolsStart) {
		t.Fatal("a nil listener was subscribed")
	}
	var got []event.Event
	d.On(string(event.ToolsResult), func(e event.Event) { got = append(got, e) })
	d.Dispatch(event.Event{Type: event.ToolsResult, Payload: event.ToolsResultPayload{ToolCallID: "c9"}, Meta: event.Meta{CompositionPath: []string{"outer", "inner"}}})
	if len(got) != 1 || got[0].Meta.CompositionPath[1] != "inner" {
		t.Fatalf("Dispatch delivered %+v", got)
	}
}
