// Benchmarks: framework and recording overhead per agent iteration (the
// target < 1 ms p50; the TypeScript stack measured ≈ 18 ms),
// and the cost of reading a record with Backtrack and Rank.

package explain_test

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/explain"
	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

const benchIterations = 10

// loopModel asks for lookup_order until benchIterations tool results are in
// the request, then answers.
func loopModel() *scripted.Provider {
	return scripted.Func(func(req *llm.Request, call int, seed int64) scripted.Reply {
		n := 0
		for _, m := range req.Messages {
			if m.Role == llm.RoleTool {
				n++
			}
		}
		if n < benchIterations {
			return scripted.Reply{ToolCalls: []llm.ToolCall{{Name: "lookup_order", Args: fmt.Appendf(nil, `{"orderId":"A-%d"}`, n)}}}
		}
		return scripted.Reply{Content: "APPROVED under the VIP override."}
	})
}

// BenchmarkIterationOverhead runs a turn of benchIterations tool-calling
// iterations plus the answer on the scripted model (no latency), with full
// recording and request capture, and with minimal recording. It reports the
// median and 99th percentile time per iteration.
func BenchmarkIterationOverhead(b *testing.B) {
	for _, bc := range []struct {
		name string
		opts []agent.Option
	}{
		{"record=full", nil},
		{"record=minimal", []agent.Option{agent.WithCapture(record.CaptureHashOnly), agent.WithoutEventLog()}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var n atomic.Int64
			units := []*inject.Unit{inject.Must(inject.Fact("vip-override", vipText)), inject.Must(inject.Steering("style", styleText))}
			opts := append([]agent.Option{agent.WithUnits(units...), agent.WithTools(lookupTool(b, &n)),
				agent.WithMaxIterations(benchIterations + 2)}, bc.opts...)
			a, err := agent.New(loopModel(), opts...)
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			var per []time.Duration
			b.ReportAllocs()
			for b.Loop() {
				start := time.Now()
				res, err := a.Run(ctx, agent.Input{Message: question})
				if err != nil {
					b.Fatal(err)
				}
				if res.Iterations < benchIterations {
					b.Fatalf("ran %d iterations", res.Iterations)
				}
				per = append(per, time.Since(start)/time.Duration(res.Iterations))
			}
			slices.Sort(per)
			b.ReportMetric(float64(per[len(per)/2].Microseconds())/1000, "p50-ms/iter")
			b.ReportMetric(float64(per[len(per)*99/100].Microseconds())/1000, "p99-ms/iter")
		})
	}
}

// BenchmarkBacktrack measures Backtrack and Rank over the record of a
// ten-iteration turn.
func BenchmarkBacktrack(b *testing.B) {
	var n atomic.Int64
	a, err := agent.New(loopModel(), agent.WithUnits(inject.Must(inject.Fact("vip-override", vipText))),
		agent.WithTools(tool.Must(tool.New("lookup_order", "Look an order up by id.", func(ctx context.Context, in lookupIn) (string, error) {
			n.Add(1)
			return "order " + in.OrderID + ": customer tier VIP", nil
		}))), agent.WithMaxIterations(benchIterations+2))
	if err != nil {
		b.Fatal(err)
	}
	res, err := a.Run(context.Background(), agent.Input{Message: question})
	if err != nil {
		b.Fatal(err)
	}
	rec := res.Record
	b.ReportAllocs()
	for b.Loop() {
		if _, err := explain.Backtrack(rec, explain.Target{}); err != nil {
			b.Fatal(err)
		}
	}
}
