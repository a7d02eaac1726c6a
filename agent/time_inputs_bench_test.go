package agent_test

import (
	"context"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/internal/agenttest"
	"github.com/agentfootprint/agentfootprint-go/clock"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
)

// BenchmarkTimeInputsIteration measures one turn (one call of a tool with
// an assume rule and a period that declares a clamped read, then the
// answer) with the results layer only, with the inputs layer (the rule
// arms it), and with WithTimeLayer and the limits block on top.
func BenchmarkTimeInputsIteration(b *testing.B) {
	t := &testing.T{}
	tl := periodTool(t, lookback, declaring(7*24*time.Hour))
	now := time.Date(2026, 10, 9, 15, 40, 0, 0, time.UTC)
	cases := []struct {
		name string
		opts []agent.Option
		in   agent.Input
	}{
		{"inputs", nil, agent.Input{Message: "errors?"}},
		{"inputs+time", []agent.Option{agent.WithTimeLayer("America/Los_Angeles"), agent.WithClock(func() time.Time { return now })},
			agent.Input{Message: "errors?", Time: &clock.Given{Now: now}}},
		{"inputs+time+limits", []agent.Option{agent.WithTimeLayer("America/Los_Angeles"), agent.WithClock(func() time.Time { return now }), agent.WithLimitsBlock()},
			agent.Input{Message: "errors?", Time: &clock.Given{Now: now}}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			p := scripted.New(
				scripted.Reply{ToolCalls: []llm.ToolCall{call("c1", "search_logs", `{"service":"checkout","window":"30d"}`)}},
				scripted.Reply{Content: "No errors."},
			)
			a, err := agent.New(p, append([]agent.Option{agent.WithTools(tl)}, c.opts...)...)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			cpu0 := agenttest.CPUTime()
			for b.Loop() {
				p.Reset()
				if _, err := a.Run(context.Background(), c.in); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((agenttest.CPUTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/op")
		})
	}
}
