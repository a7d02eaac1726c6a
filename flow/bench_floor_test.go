// The engine's plain loop against the floor any recording loop pays: per
// iteration one map write of the counter and one op appended to a log,
// interleaved in one benchmark run so the ratio is measured under one load.

package flow_test

import (
	"context"
	"flag"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/internal/benchpair"
)

var floorBlock = flag.Int("floor.block", 8, "runs per block in BenchmarkLoopVsFloor (1: run by run)")

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
// BenchmarkLoop10k and reports the CPU time per iteration of each and their
// ratio. The CPU time is the process's, so it includes the collector's
// background work, which lands beside whichever loop runs when a cycle is
// under way. Run by run, that tied the ratio to where the cycles fell
// against the runs: the same engine read 2.4x or 4x as its allocation
// pattern moved the cycles by a fraction of a run. The loops therefore run
// in blocks of -floor.block runs, long enough for several cycles of each
// loop's own garbage, each side's block right after the other's, the order
// flipping from one pair of blocks to the next, so each loop pays for its
// own collection and the little that spills past a block's end falls on
// both sides alike. b.N counts runs of each loop.
func BenchmarkLoopVsFloor(b *testing.B) {
	const iters = 10000
	c := loopChart(b, iters, "")
	ctx := context.Background()
	var floor, engine int64
	runFloor := func(k int) {
		c0 := cpuNanos()
		for range k {
			if log := floorLoop(iters); len(log) != iters {
				b.Fatalf("floor logged %d ops", len(log))
			}
		}
		floor += cpuNanos() - c0
	}
	runEngine := func(k int) {
		c0 := cpuNanos()
		for range k {
			res, err := c.Run(ctx, nil, flow.WithRunID("bench"), flow.WithVisitLimit(iters+1))
			if err != nil {
				b.Fatal(err)
			}
			if res.Output != iters {
				b.Fatalf("output %v", res.Output)
			}
		}
		engine += cpuNanos() - c0
	}
	b.ReportAllocs()
	b.ResetTimer()
	benchpair.Run(b.N, *floorBlock, runFloor, runEngine)
	per := float64(b.N * iters)
	b.ReportMetric(float64(floor)/per, "floor-cpu-ns/iter")
	b.ReportMetric(float64(engine)/per, "engine-cpu-ns/iter")
	b.ReportMetric(float64(engine)/float64(floor), "engine/floor")
}
