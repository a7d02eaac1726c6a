package eventbus

import (
	"testing"

	"github.com/agentfootprint/agentfootprint-go/event"
)

var sinkCount int

func BenchmarkEmitNoListener(b *testing.B) {
	var d Dispatcher
	d.On(string(event.AgentTurnEnd), func(event.Event) {}) // a listener elsewhere must not slow this name
	d.On("agentfootprint.findings.*", func(event.Event) {})
	meta := event.Meta{RunID: "run-1", RuntimeStageID: "tool-calls#4"}
	iter := 3
	b.ReportAllocs()
	for b.Loop() {
		d.Emit(event.ToolsResult, func() any {
			return event.ToolsResultPayload{ToolCallID: "c1", Result: "ok", DurationMs: int64(iter)}
		}, meta)
	}
}

func BenchmarkHasListenersMiss(b *testing.B) {
	var d Dispatcher
	d.On(string(event.AgentTurnEnd), func(event.Event) {})
	d.On("agentfootprint.findings.*", func(event.Event) {})
	b.ReportAllocs()
	for b.Loop() {
		if d.HasListeners(event.ToolsResult) {
			sinkCount++
		}
	}
}

func BenchmarkEmitOneListener(b *testing.B) {
	var d Dispatcher
	d.On(string(event.ToolsResult), func(e event.Event) {
		if e.Payload != nil {
			sinkCount++
		}
	})
	meta := event.Meta{RunID: "run-1", RuntimeStageID: "tool-calls#4"}
	var n int64
	b.ReportAllocs()
	for b.Loop() {
		n++
		// A payload built from run values: boxing it is the one allocation.
		d.Emit(event.ToolsResult, func() any {
			return event.ToolsResultPayload{ToolCallID: "c1", Result: "ok", DurationMs: n}
		}, meta)
	}
}

func BenchmarkEmitFourListenersMixedPatterns(b *testing.B) {
	var d Dispatcher
	for _, p := range []string{"*", "agentfootprint.tools.*", string(event.ToolsResult), string(event.AgentTurnEnd)} {
		d.On(p, func(e event.Event) { sinkCount++ })
	}
	meta := event.Meta{RunID: "run-1"}
	b.ReportAllocs()
	for b.Loop() {
		d.Emit(event.ToolsResult, func() any { return event.ToolsResultPayload{ToolCallID: "c1"} }, meta)
	}
}
