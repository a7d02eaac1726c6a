// The engine's plain loop against the floor any recording loop pays: per
// iteration one map write of the counter and one op appended to a log,
// interleaved in one benchmark run so the ratio is measured under one load.

package flow_test

import (
	"context"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/flow"
)

// floorLoop is the least a loop that keeps its state in a map and logs each
// write can do: the counter written to the map, the write appended as an op.
// It returns the log so the compiler keeps the work.
func floorLoop(iters int) []flow.Op {
	state := map[string]any{}
	var log []flow.Op
	for n := 0; n < iters; n++ {
		state["iteration"] = n + 1
		log = append(log, flow.Op{Key: "iteration", Verb: flow.VerbSet, Value: n + 1})
	}
	return log
}

// BenchmarkLoopVsFloor runs the floor and the 10,000-iteration loop chart of
// BenchmarkLoop10k one after the other in each round and reports the CPU
// time per iteration of each and their ratio.
func BenchmarkLoopVsFloor(b *testing.B) {
	const iters = 10000
	c := loopChart(b, iters, "")
	ctx := context.Background()
	var floor, engine int64
	b.ReportAllocs()
	for b.Loop() {
		c0 := cpuNanos()
		if log := floorLoop(iters); len(log) != iters {
			b.Fatalf("floor logged %d ops", len(log))
		}
		c1 := cpuNanos()
		res, err := c.Run(ctx, nil, flow.WithRunID("bench"), flow.WithVisitLimit(iters+1))
		if err != nil {
			b.Fatal(err)
		}
		if res.Output != iters {
			b.Fatalf("output %v", res.Output)
		}
		engine += cpuNanos() - c1
		floor += c1 - c0
	}
	per := float64(b.N * iters)
	b.ReportMetric(float64(floor)/per, "floor-cpu-ns/iter")
	b.ReportMetric(float64(engine)/per, "engine-cpu-ns/iter")
	b.ReportMetric(float64(engine)/float64(floor), "engine/floor")
}
