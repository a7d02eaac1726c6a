package event

import "testing"

var sinkCount int

func BenchmarkEmitNoListener(b *testing.B) {
	var d Dispatcher
	d.On(string(AgentTurnEnd), func(Event) {}) // a listener elsewhere must not slow this name
	d.On("agentfootprint.findings.*", func(Event) {})
	meta := Meta{RunID: "run-1", RuntimeStageID: "tool-calls#4"}
	iter := 3
	b.ReportAllocs()
	for b.Loop() {
		d.Emit(ToolsResult, func() any {
			return ToolsResultPayload{ToolCallID: "c1", Result: "ok", DurationMs: int64(iter)}
		}, meta)
	}
}

func BenchmarkHasListenersMiss(b *testing.B) {
	var d Dispatcher
	d.On(string(AgentTurnEnd), func(Event) {})
	d.On("agentfootprint.findings.*", func(Event) {})
	b.ReportAllocs()
	for b.Loop() {
		if d.HasListeners(ToolsResult) {
			sinkCount++
		}
	}
}

func BenchmarkEmitOneListener(b *testing.B) {
	var d Dispatcher
	d.On(string(ToolsResult), func(e Event) {
		if e.Payload != nil {
			sinkCount++
		}
	})
	meta := Meta{RunID: "run-1", RuntimeStageID: "tool-calls#4"}
	var n int64
	b.ReportAllocs()
	for b.Loop() {
		n++
		// A payload built from run values: boxing it is the one allocation.
		d.Emit(ToolsResult, func() any {
			return ToolsResultPayload{ToolCallID: "c1", Result: "ok", DurationMs: n}
		}, meta)
	}
}

func BenchmarkEmitFourListenersMixedPatterns(b *testing.B) {
	var d Dispatcher
	for _, p := range []string{"*", "agentfootprint.tools.*", string(ToolsResult), string(AgentTurnEnd)} {
		d.On(p, func(e Event) { sinkCount++ })
	}
	meta := Meta{RunID: "run-1"}
	b.ReportAllocs()
	for b.Loop() {
		d.Emit(ToolsResult, func() any { return ToolsResultPayload{ToolCallID: "c1"} }, meta)
	}
}
