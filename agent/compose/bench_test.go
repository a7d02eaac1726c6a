// The composition overhead benchmark: an inner agent called directly and the
// same agent called through a composition, interleaved in one run, so the
// ratio per inner agent call is measured under the same load.

package compose_test

import (
	"context"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/compose"
	"github.com/agentfootprint/agentfootprint-go/agent/internal/agenttest"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
)

// benchInner is an agent whose turn makes one tool call and answers.
func benchInner(b *testing.B, id string) (*agent.Agent, *scripted.Provider) {
	p := scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{call("c1", "service_status", `{"service":"checkout"}`)}},
		scripted.Reply{Content: "Checkout is degraded."},
	)
	a, err := agent.New(p, agent.WithID(id), agent.WithTools(agenttest.RatioTool()), agent.WithResultsLayer())
	if err != nil {
		b.Fatal(err)
	}
	return a, p
}

// BenchmarkComposeOverhead reports, per inner agent call, the CPU time of
// calling the inner agents directly and through a composition (a sequence
// of one call, a parallel of two with a merge func), and their ratio.
func BenchmarkComposeOverhead(b *testing.B) {
	join := func(ctx context.Context, outs []compose.Outcome) (string, error) { return outs[0].Answer, nil }
	for _, bc := range []struct {
		name  string
		inner int
		build func(as []*agent.Agent) compose.Step
	}{
		{"sequence=1", 1, func(as []*agent.Agent) compose.Step { return compose.Call("a", as[0]) }},
		{"parallel=2", 2, func(as []*agent.Agent) compose.Step {
			return compose.Parallel("p", compose.ParallelOptions{Merge: join}, compose.Call("a", as[0]), compose.Call("b", as[1]))
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			ctx := context.Background()
			var direct, composed []*agent.Agent
			var ps []*scripted.Provider
			for range bc.inner {
				a, p := benchInner(b, "direct")
				c, q := benchInner(b, "composed")
				direct, composed, ps = append(direct, a), append(composed, c), append(ps, p, q)
			}
			comp, err := compose.New("bench", bc.build(composed))
			if err != nil {
				b.Fatal(err)
			}
			var dt, ct time.Duration
			b.ReportAllocs()
			for b.Loop() {
				for _, p := range ps {
					p.Reset()
				}
				c0 := cpuTime()
				for _, a := range direct {
					if _, err := a.Run(ctx, agent.Input{Message: "What is broken?"}); err != nil {
						b.Fatal(err)
					}
				}
				c1 := cpuTime()
				res, err := comp.Run(ctx, agent.Input{Message: "What is broken?"})
				if err != nil {
					b.Fatal(err)
				}
				_ = res.RollUp
				ct += cpuTime() - c1
				dt += c1 - c0
			}
			calls := float64(b.N * bc.inner)
			b.ReportMetric(float64(dt.Microseconds())/calls, "direct-cpu-µs/inner")
			b.ReportMetric(float64(ct.Microseconds())/calls, "composed-cpu-µs/inner")
			b.ReportMetric(float64(ct)/float64(dt), "composed/direct")
		})
	}
}
