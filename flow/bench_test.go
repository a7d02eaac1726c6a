// Benchmarks: per-stage overhead, the agent-shaped loop, appending loops with
// retained heap, emit without listener, commits, reads and replay.

package flow_test

import (
	"context"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/flow"
)

// loopChart is decider → stage → back-edge, iters passes, optionally
// appending a payload to a list key each pass.
func loopChart(tb testing.TB, iters int, payload string) *flow.Chart {
	tb.Helper()
	iter := flow.Key[int]("iteration")
	hist := flow.List[string]("history")
	// Rules are data: built once, evaluated on each pass.
	rules := []flow.Rule{{Label: "more to do", Branch: "work",
		When: func(r flow.Reader) bool { n, _ := iter.Get(r); return n < iters }}}
	c, err := flow.NewBuilder("loop").
		Keys(iter, hist).
		Stage("seed", func(ctx context.Context, s *flow.Scope) (any, error) {
			iter.Set(s, 0)
			return nil, nil
		}).
		Decider("route", func(ctx context.Context, s *flow.Scope) (*flow.Decision, error) {
			return flow.Decide(s, rules, "done"), nil
		},
			flow.Branch("work").Stage("work", func(ctx context.Context, s *flow.Scope) (any, error) {
				n, _ := iter.Get(s)
				iter.Set(s, n+1)
				if payload != "" {
					// A fresh string each pass, as a new message would be.
					hist.Append(s, strconv.Itoa(n)+payload[len(strconv.Itoa(n)):])
				}
				return nil, nil
			}).LoopTo("route"),
			flow.Branch("done").Stage("final", func(ctx context.Context, s *flow.Scope) (any, error) {
				n, _ := iter.Get(s)
				return n, nil
			}),
		).Build()
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// perIter reports wall and process-CPU nanoseconds per unit of work; on a
// shared machine the CPU figure is the one that does not include waiting.
func perIter(b *testing.B, cpu0 int64, units int, unit string) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*units), "ns/"+unit)
	b.ReportMetric(float64(cpuNanos()-cpu0)/float64(b.N*units), "cpu-ns/"+unit)
}

func BenchmarkLinearStage(b *testing.B) {
	for _, n := range []int{10, 100, 500} {
		b.Run(fmt.Sprintf("stages=%d", n), func(b *testing.B) {
			k := flow.Key[int]("n")
			bl := flow.NewBuilder("chain").Keys(k)
			for i := 0; i < n; i++ {
				bl.Stage(fmt.Sprintf("s%d", i), func(ctx context.Context, s *flow.Scope) (any, error) {
					v, _ := k.Get(s)
					k.Set(s, v+1)
					return nil, nil
				})
			}
			c := bl.MustBuild()
			ctx := context.Background()
			b.ReportAllocs()
			cpu0 := cpuNanos()
			for b.Loop() {
				if _, err := c.Run(ctx, nil, flow.WithRunID("bench")); err != nil {
					b.Fatal(err)
				}
			}
			perIter(b, cpu0, n, "stage")
		})
	}
}

func BenchmarkLoop10k(b *testing.B) {
	const iters = 10000
	c := loopChart(b, iters, "")
	ctx := context.Background()
	b.ReportAllocs()
	cpu0 := cpuNanos()
	for b.Loop() {
		res, err := c.Run(ctx, nil, flow.WithRunID("bench"), flow.WithVisitLimit(iters+1))
		if err != nil {
			b.Fatal(err)
		}
		if res.Output != iters {
			b.Fatalf("output %v", res.Output)
		}
	}
	perIter(b, cpu0, iters, "iter")
}

func BenchmarkAppendLoop1KB(b *testing.B) {
	const iters = 1000
	payload := strings.Repeat("x", 1024)
	c := loopChart(b, iters, payload)
	ctx := context.Background()
	b.ReportAllocs()
	var retained float64
	for b.Loop() {
		b.StopTimer()
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		b.StartTimer()
		res, err := c.Run(ctx, nil, flow.WithRunID("bench"), flow.WithVisitLimit(iters+1))
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		retained = float64(after.HeapAlloc) - float64(before.HeapAlloc)
		runtime.KeepAlive(res)
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*iters), "ns/iter")
	b.ReportMetric(retained, "retained-B")
	b.ReportMetric(retained/float64(iters*len(payload)), "retained/appended")
}

// BenchmarkHistoryRetained is the growing-history case with one commit per
// iteration: a single stage appends a fresh 1 KB message and loops to
// itself, breaking after 1,000 passes. Retained heap is measured with the
// whole result (state and record) alive.
func BenchmarkHistoryRetained(b *testing.B) {
	const iters = 1000
	payload := strings.Repeat("x", 1024)
	n := flow.Key[int]("n")
	hist := flow.List[string]("history")
	c := flow.NewBuilder("history").Keys(n, hist).
		Stage("turn", func(ctx context.Context, s *flow.Scope) (any, error) {
			i, _ := n.Get(s)
			hist.Append(s, strconv.Itoa(i)+payload[len(strconv.Itoa(i)):])
			n.Set(s, i+1)
			if i+1 == iters {
				s.Break("done")
			}
			return nil, nil
		}).LoopTo("turn").MustBuild()
	ctx := context.Background()
	b.ReportAllocs()
	var retained float64
	for b.Loop() {
		b.StopTimer()
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		b.StartTimer()
		res, err := c.Run(ctx, nil, flow.WithRunID("bench"), flow.WithVisitLimit(iters))
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		retained = float64(after.HeapAlloc) - float64(before.HeapAlloc)
		runtime.KeepAlive(res)
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*iters), "ns/iter")
	b.ReportMetric(retained, "retained-B")
	b.ReportMetric(retained/float64(iters*len(payload)), "retained/appended")
}

// BenchmarkAppendLateEarly compares the cost of an append iteration late in
// a 1,000-iteration run with one early on: linear growth keeps it flat.
func BenchmarkAppendLateEarly(b *testing.B) {
	payload := strings.Repeat("x", 1024)
	for _, iters := range []int{100, 1000} {
		b.Run(fmt.Sprintf("iters=%d", iters), func(b *testing.B) {
			c := loopChart(b, iters, payload)
			ctx := context.Background()
			b.ReportAllocs()
			cpu0 := cpuNanos()
			for b.Loop() {
				if _, err := c.Run(ctx, nil, flow.WithRunID("bench"), flow.WithVisitLimit(iters+1)); err != nil {
					b.Fatal(err)
				}
			}
			perIter(b, cpu0, iters, "iter")
		})
	}
}

// oneStage runs body once inside a stage of a one-stage chart.
func oneStage(b *testing.B, keys []flow.KeyDecl, inputs map[string]any, body func(s *flow.Scope)) {
	b.Helper()
	c := flow.NewBuilder("one").Keys(keys...).Stage("only", func(ctx context.Context, s *flow.Scope) (any, error) {
		body(s)
		return nil, nil
	}).MustBuild()
	if _, err := c.Run(context.Background(), inputs, flow.WithRunID("bench")); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkEmitNoListener(b *testing.B) {
	oneStage(b, nil, nil, func(s *flow.Scope) {
		n := 0
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			n++
			s.Emit("bench.tick", func() any { return n })
		}
	})
}

// BenchmarkCommitWrites measures one stage execution that writes w keys and
// commits: a run loops the stage 1,000 times, so the per-commit figure
// excludes starting a run and first-time key slots.
func BenchmarkCommitWrites(b *testing.B) {
	const passes = 1000
	for _, w := range []int{1, 10, 100} {
		b.Run(fmt.Sprintf("writes=%d", w), func(b *testing.B) {
			keys := make([]flow.KeyDecl, w)
			names := make([]string, w)
			for i := range keys {
				names[i] = fmt.Sprintf("k%d", i)
				keys[i] = flow.Key[int](names[i])
			}
			n := 0
			c := flow.NewBuilder("writes").Keys(keys...).Stage("w", func(ctx context.Context, s *flow.Scope) (any, error) {
				for i, name := range names {
					flow.Key[any](name).Set(s, i)
				}
				n++
				if n%passes == 0 {
					s.Break("done")
				}
				return nil, nil
			}).LoopTo("w").MustBuild()
			ctx := context.Background()
			b.ReportAllocs()
			cpu0 := cpuNanos()
			for b.Loop() {
				if _, err := c.Run(ctx, nil, flow.WithRunID("bench"), flow.WithVisitLimit(passes)); err != nil {
					b.Fatal(err)
				}
			}
			perIter(b, cpu0, passes, "commit")
		})
	}
}

func BenchmarkTrackedReads1MB(b *testing.B) {
	big := flow.Key[string]("big")
	val := strings.Repeat("y", 1<<20)
	oneStage(b, []flow.KeyDecl{big}, map[string]any{"big": val}, func(s *flow.Scope) {
		b.ReportAllocs()
		cpu0 := cpuNanos()
		for b.Loop() {
			for range 50 {
				if v, _ := big.Get(s); len(v) != len(val) {
					b.Fatal("short read")
				}
			}
		}
		perIter(b, cpu0, 1, "50reads")
	})
}

func BenchmarkReplay(b *testing.B) {
	for _, n := range []int{100, 500} {
		// Each iteration makes two commits (decider, stage).
		c := loopChart(b, n/2, strings.Repeat("z", 64))
		res, err := c.Run(context.Background(), nil, flow.WithRunID("bench"))
		if err != nil {
			b.Fatal(err)
		}
		last := len(res.Record.Commits) - 1
		b.Run(fmt.Sprintf("ValueAt/commits=%d", last+1), func(b *testing.B) {
			b.ReportAllocs()
			cpu0 := cpuNanos()
			for b.Loop() {
				// One commit before the last (the final stage writes
				// nothing, so the list is the same): at the last commit
				// ValueAt reads the run's final state and replays nothing.
				if _, _, err := flow.ValueAt(res.Record, last-1, "history"); err != nil {
					b.Fatal(err)
				}
			}
			perIter(b, cpu0, 1, "op")
		})
		b.Run(fmt.Sprintf("ValueAtLast/commits=%d", last+1), func(b *testing.B) {
			b.ReportAllocs()
			cpu0 := cpuNanos()
			for b.Loop() {
				if _, _, err := flow.ValueAt(res.Record, last, "history"); err != nil {
					b.Fatal(err)
				}
			}
			perIter(b, cpu0, 1, "op")
		})
		b.Run(fmt.Sprintf("Materialise/commits=%d", last+1), func(b *testing.B) {
			b.ReportAllocs()
			cpu0 := cpuNanos()
			for b.Loop() {
				if _, err := flow.Materialise(res.Record, last); err != nil {
					b.Fatal(err)
				}
			}
			perIter(b, cpu0, 1, "op")
		})
	}
}

// BenchmarkMountLoop is a loop that mounts a four-stage subflow on every
// pass, the way an agent's results layer judges each batch: two inputs in,
// one list append out. It measures what one mount costs on top of its
// stages.
func BenchmarkMountLoop(b *testing.B) {
	const passes = 100
	calls := flow.Key[[]string]("calls")
	turn := flow.Key[int]("turn")
	plan := flow.Key[[]string]("plan")
	rows := flow.Key[[]string]("rows")
	sub := flow.NewBuilder("judge").Keys(calls, turn, plan, rows).
		Stage("declare", func(ctx context.Context, s *flow.Scope) (any, error) {
			c, _ := calls.Get(s)
			plan.Set(s, c)
			return nil, nil
		}).
		Stage("verify", func(ctx context.Context, s *flow.Scope) (any, error) {
			p, _ := plan.Get(s)
			rows.Set(s, p)
			return nil, nil
		}).
		Stage("record", func(ctx context.Context, s *flow.Scope) (any, error) {
			_, _ = rows.Get(s)
			_, _ = turn.Get(s)
			return nil, nil
		}).
		Stage("resolve", func(ctx context.Context, s *flow.Scope) (any, error) { return nil, nil }).
		MustBuild()
	n := flow.Key[int]("n")
	ledger := flow.List[string]("ledger")
	batch := []string{"c1", "c2"}
	c := flow.NewBuilder("outer").Keys(n, ledger).
		Stage("work", func(ctx context.Context, s *flow.Scope) (any, error) {
			i, _ := n.Get(s)
			n.Set(s, i+1)
			return nil, nil
		}).
		Mount("judge", sub, flow.Mount{
			Input: func(parent flow.Reader) (map[string]any, error) {
				i, _ := n.Get(parent)
				return map[string]any{"calls": batch, "turn": i}, nil
			},
			Output: func(res flow.SubflowResult, _ flow.Reader) ([]flow.Op, error) {
				v, _ := res.State.Get("rows")
				r, _ := v.([]string)
				return []flow.Op{ledger.AppendOp(r...)}, nil
			},
		}).
		Stage("check", func(ctx context.Context, s *flow.Scope) (any, error) {
			if i, _ := n.Get(s); i == passes {
				s.Break("done")
			}
			return nil, nil
		}).LoopTo("work").MustBuild()
	ctx := context.Background()
	b.ReportAllocs()
	cpu0 := cpuNanos()
	for b.Loop() {
		res, err := c.Run(ctx, nil, flow.WithRunID("bench"), flow.WithVisitLimit(passes))
		if err != nil {
			b.Fatal(err)
		}
		v, _, err := flow.ValueAt(res.Record, len(res.Record.Commits)-1, "ledger")
		if l, _ := v.([]string); err != nil || len(l) != 2*passes {
			b.Fatalf("ledger has %d rows (%v)", len(l), err)
		}
	}
	perIter(b, cpu0, passes, "mount")
}
