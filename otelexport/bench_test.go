// This file measures the live observer's cost: the demo's turn (three model
// calls, three tool calls) with and without an Observer attached, in the
// same run, spans going through the SDK's batch processor to an exporter
// that drops them.

package otelexport_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/otelexport"
	"github.com/agentfootprint/agentfootprint-go/scenario"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// dropExporter takes spans and keeps nothing.
type dropExporter struct{}

func (dropExporter) ExportSpans(context.Context, []sdktrace.ReadOnlySpan) error { return nil }
func (dropExporter) Shutdown(context.Context) error                             { return nil }

// modelCallsPerTurn is the demo's model calls in one turn.
const modelCallsPerTurn = 3

func BenchmarkObserverOverhead(b *testing.B) {
	f, err := scenario.Demo()
	if err != nil {
		b.Fatal(err)
	}
	p, err := f.Parts()
	if err != nil {
		b.Fatal(err)
	}
	opts := append(append([]agent.Option{}, p.Options...), agent.WithUnits(p.Units...), agent.WithTools(p.Tools...))
	a, err := agent.New(p.Provider, opts...)
	if err != nil {
		b.Fatal(err)
	}
	in := agent.Input{Message: f.Question()}
	ctx := context.Background()
	for _, bc := range []struct {
		name    string
		observe bool
	}{{"observer=off", false}, {"observer=on", true}} {
		b.Run(bc.name, func(b *testing.B) {
			tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(dropExporter{}))
			defer tp.Shutdown(ctx)
			x := otelexport.MustNew(otelexport.WithTracerProvider(tp), otelexport.WithContent(false))
			b.ReportAllocs()
			cpu0 := cpuTime()
			// One observer serves every turn, as it would in a service: End
			// closes each turn, the next turn_start opens the next.
			var obs *otelexport.Observer
			if bc.observe {
				obs = x.Observer(ctx)
				defer obs.Attach(a.MustOn)()
			}
			for b.Loop() {
				res, err := a.Run(ctx, in)
				if err != nil {
					b.Fatal(err)
				}
				if obs != nil {
					obs.End(res.Record, nil)
				}
			}
			// CPU time of the whole process (the batch processor's goroutine
			// included) per model call: on a shared machine it wanders far
			// less than wall time.
			b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N*modelCallsPerTurn), "cpu-ns/model-call")
		})
	}
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkReplayTurn builds the spans of one recorded demo turn from its
// events alone: the observer's own share of the overhead above, without
// the agent.
func BenchmarkReplayTurn(b *testing.B) {
	f, err := scenario.Demo()
	if err != nil {
		b.Fatal(err)
	}
	rep, err := scenario.Run(context.Background(), f)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(dropExporter{}))
	defer tp.Shutdown(ctx)
	x := otelexport.MustNew(otelexport.WithTracerProvider(tp), otelexport.WithContent(false))
	b.ReportAllocs()
	for b.Loop() {
		if err := x.ExportRecord(ctx, rep.Record); err != nil {
			b.Fatal(err)
		}
	}
}
