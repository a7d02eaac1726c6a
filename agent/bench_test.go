// Benchmarks: one agent iteration with full and minimal recording, and the
// spec's mock run (5 iterations × 2 tools) with p50/p99.

package agent_test

import (
	"context"
	"sort"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/internal/agenttest"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
)

// BenchmarkAgentIteration is one tool-calling iteration (model → one tool
// call → result) plus the answering call: a whole turn of two model calls.
func BenchmarkAgentIteration(b *testing.B) {
	for _, bc := range []struct {
		name string
		opts []agent.Option
	}{
		{"record=full", nil},
		{"record=minimal", []agent.Option{agent.WithCapture(record.CaptureHashOnly), agent.WithoutEventLog()}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			p := scripted.New(
				scripted.Reply{ToolCalls: []llm.ToolCall{call("c1", "service_status", `{"service":"checkout"}`)}},
				scripted.Reply{Content: "Checkout is degraded."},
			)
			a, err := agent.New(p, append([]agent.Option{agent.WithTools(statusTool(b, nil)), agent.WithSystemPrompt("You triage incidents.")}, bc.opts...)...)
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			b.ReportAllocs()
			cpu0 := agenttest.CPUTime()
			for b.Loop() {
				p.Reset()
				if _, err := a.Run(ctx, agent.Input{Message: "What is broken?"}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((agenttest.CPUTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/op")
		})
	}
}

// BenchmarkMockRun is the mock agent run of docs/PERFORMANCE.md: five iterations
// each calling two tools, then the answer, on the scripted model. It reports
// the median and 99th percentile of the run latency.
func BenchmarkMockRun(b *testing.B) {
	var replies []scripted.Reply
	for i := range 5 {
		id := string(rune('a' + i))
		replies = append(replies, scripted.Reply{ToolCalls: []llm.ToolCall{
			call(id+"1", "service_status", `{"service":"checkout"}`),
			call(id+"2", "service_status", `{"service":"payments"}`),
		}})
	}
	replies = append(replies, scripted.Reply{Content: "Both services are degraded."})
	p := scripted.New(replies...)
	a, err := agent.New(p, agent.WithTools(statusTool(b, nil)))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	var lat []time.Duration
	b.ReportAllocs()
	cpu0 := agenttest.CPUTime()
	for b.Loop() {
		p.Reset()
		t0 := time.Now()
		res, err := a.Run(ctx, agent.Input{Message: "What is broken?"})
		lat = append(lat, time.Since(t0))
		if err != nil || res.Iterations != 6 {
			b.Fatalf("run: %v", err)
		}
	}
	b.ReportMetric(float64((agenttest.CPUTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/op")
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	pct := func(q float64) float64 { return float64(lat[int(q*float64(len(lat)-1))].Microseconds()) }
	b.ReportMetric(pct(0.50), "p50-µs")
	b.ReportMetric(pct(0.99), "p99-µs")
}
