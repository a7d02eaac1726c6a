// Tests for the run's arenas: ops staged straight into the slab, the scopes
// that must not share its free room, and the per-chart size hint, which may
// change how many allocations a run makes but never what it records.

package flow_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/google/go-cmp/cmp"
)

// recordJSON runs c with the agent-chart inputs and maxIterations m and
// returns the record's JSON.
func recordJSON(t testing.TB, c *flow.Chart, m int) string {
	t.Helper()
	res, err := c.Run(context.Background(), map[string]any{"userMessage": "hi", "maxIterations": m}, flow.WithRunID("run-1"))
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return string(mustJSON(t, res.Record))
}

// A chart's runs are sized from its last one; a run shorter or longer than
// that records exactly what a run of a fresh chart records.
func TestRunHintKeepsRecord(t *testing.T) {
	hinted := agentChart(t, 40, 0)
	for _, m := range []int{3, 3, 30, 2, 41, 41, 1, 12} {
		want := recordJSON(t, agentChart(t, 40, 0), m)
		if got := recordJSON(t, hinted, m); got != want {
			t.Fatalf("maxIterations %d after other runs: record differs from a fresh chart's:\n%s", m, cmp.Diff(want, got))
		}
	}
}

// A hinted run makes fewer allocations than the same chart's first run: its
// commit, op and detail arenas start at the size the last run needed.
func TestRunHintSavesAllocations(t *testing.T) {
	const runs = 20
	fresh := make([]*flow.Chart, runs+1)
	for i := range fresh {
		fresh[i] = agentChart(t, 40, 0)
	}
	// Only the runs are counted: the record's JSON encoder draws on a
	// sync.Pool, which the race detector empties at random.
	run := func(c *flow.Chart) {
		if _, err := c.Run(context.Background(), map[string]any{"userMessage": "hi", "maxIterations": 30}, flow.WithRunID("run-1")); err != nil {
			t.Fatalf("run: %v", err)
		}
	}
	i := 0
	first := testing.AllocsPerRun(runs, func() {
		run(fresh[i])
		i++
	})
	hinted := agentChart(t, 40, 0)
	again := testing.AllocsPerRun(runs, func() { run(hinted) })
	t.Logf("a hinted run allocates %.0f times, a first run %.0f", again, first)
	if again >= first {
		t.Fatalf("a hinted run allocates %.0f times, a first run %.0f: want fewer", again, first)
	}
}

// Runs of one chart at once share only its hint, which is atomic.
func TestRunHintConcurrentRuns(t *testing.T) {
	c := agentChart(t, 40, 0)
	want := map[int]string{}
	for _, m := range []int{2, 9, 33} {
		want[m] = recordJSON(t, agentChart(t, 40, 0), m)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 30)
	for g := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 5 {
				m := []int{2, 9, 33}[(g+k)%3]
				if got := recordJSON(t, c, m); got != want[m] {
					errs <- fmt.Sprintf("maxIterations %d: record differs", m)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

var (
	kMany = flow.List[int]("many")
	kTag  = flow.Key[string]("tag")
	kOut  = flow.List[string]("out")
)

// opsOf lists every commit's ops as "key verb value" strings.
func opsOf(rec *flow.Record) [][]string {
	var all [][]string
	for _, c := range rec.Commits {
		var l []string
		for _, op := range c.Ops {
			l = append(l, fmt.Sprintf("%s %s %v", op.Key, op.Verb, op.Value))
		}
		all = append(all, l)
	}
	return all
}

// A stage staging more ops than the slab's free room holds, small stages
// around it, and a stage with none: every commit keeps its own ops.
func TestStagedOpsOutgrowTheSlab(t *testing.T) {
	stage := func(n int) flow.StageFunc {
		return func(ctx context.Context, s *flow.Scope) (any, error) {
			for i := range n {
				kMany.Append(s, n*1000+i)
			}
			if n > 0 {
				kTag.Set(s, fmt.Sprint("after ", n))
			}
			return nil, nil
		}
	}
	sizes := []int{1, 3, 0, 200, 2, 17, 40, 5, 1}
	b := flow.NewBuilder("many").Keys(kMany, kTag)
	for i, n := range sizes {
		b = b.Stage(fmt.Sprintf("s%d", i), stage(n))
	}
	c := b.MustBuild()
	for run := range 3 { // the second and third runs are hinted
		res, err := c.Run(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		got := opsOf(res.Record)
		want := [][]string{nil} // the input commit
		var list []int
		for _, n := range sizes {
			var l []string
			for i := range n {
				list = append(list, n*1000+i)
				l = append(l, fmt.Sprintf("many append [%d]", n*1000+i))
			}
			if n > 0 {
				l = append(l, fmt.Sprintf("tag set after %d", n))
			}
			want = append(want, l)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("run %d: ops (-want +got):\n%s", run, d)
		}
		final, _, err := flow.ValueAt(res.Record, len(res.Record.Commits)-1, "many")
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(list, final); d != "" {
			t.Fatalf("run %d: final list (-want +got):\n%s", run, d)
		}
	}
}

// A mount's scope that stages a write in its input mapping, before the
// subflow's stages stage theirs, and its output ops after them: neither
// scope's ops land in the other's commit.
func TestMountScopeStagesAroundInnerStages(t *testing.T) {
	inner := flow.NewBuilder("inner").Keys(kOut).
		Stage("a", func(ctx context.Context, s *flow.Scope) (any, error) {
			kOut.Append(s, "a1", "a2")
			kOut.Append(s, "a3")
			return nil, nil
		}).
		Stage("b", func(ctx context.Context, s *flow.Scope) (any, error) {
			kOut.Append(s, "b1")
			return nil, nil
		}).MustBuild()
	host := flow.NewBuilder("host").Keys(kTag, kOut).
		Stage("seed", func(ctx context.Context, s *flow.Scope) (any, error) {
			kOut.Set(s, []string{"seed"})
			return nil, nil
		}).
		Mount("m", inner, flow.Mount{
			Input: func(p flow.Reader) (map[string]any, error) {
				kTag.Set(p.(*flow.Scope), "from input")
				return nil, nil
			},
			Output: func(res flow.SubflowResult, p flow.Reader) ([]flow.Op, error) {
				return []flow.Op{kOut.AppendOp(kOut.Get(res.State)...)}, nil
			},
		}).MustBuild()
	for run := range 2 {
		res, err := host.Run(context.Background(), nil, flow.WithRunID("r"))
		if err != nil {
			t.Fatal(err)
		}
		want := [][]string{nil, {"out set [seed]"}, {"tag set from input", "out append [a1 a2 a3 b1]"}}
		if d := cmp.Diff(want, opsOf(res.Record)); d != "" {
			t.Fatalf("run %d: host ops (-want +got):\n%s", run, d)
		}
		sub := res.Record.Subflows["m#1"]
		if sub == nil {
			t.Fatalf("run %d: no inner record under m#1: %v", run, res.Record.Subflows)
		}
		wantIn := [][]string{nil, {"out append [a1 a2]", "out append [a3]"}, {"out append [b1]"}}
		if d := cmp.Diff(wantIn, opsOf(sub)); d != "" {
			t.Fatalf("run %d: inner ops (-want +got):\n%s", run, d)
		}
	}
}

// Runtime ids are written straight into the run's id arena: ids of every
// length, around a chunk's end and past a chunk's size, come out whole.
func TestRuntimeIDsAcrossArenaChunks(t *testing.T) {
	long := strings.Repeat("x", 600)
	b := flow.NewBuilder("ids")
	var want []string
	want = append(want, flow.InputStageID)
	for i := range 120 {
		id := fmt.Sprintf("s%d-%s", i, strings.Repeat("y", i%37))
		if i == 60 {
			id = long
		}
		b = b.Stage(id, noop)
		want = append(want, fmt.Sprintf("%s#%d", id, i))
	}
	c := b.MustBuild()
	for run := range 3 {
		res, err := c.Run(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, runtimeIDs(res.Record)); d != "" {
			t.Fatalf("run %d: runtime ids (-want +got):\n%s", run, d)
		}
	}
}
