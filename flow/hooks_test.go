// Tests for observers: hook order, emits before commits, panic isolation and
// the zero-cost path with nobody listening.

package flow_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/google/go-cmp/cmp"
)

func TestHookOrder(t *testing.T) {
	var log []string
	add := func(format string, a ...any) { log = append(log, fmt.Sprintf(format, a...)) }
	h := &flow.Hooks{
		RunStart:      func(i flow.StageInfo) { add("run-start %s", i.RunID) },
		StageStart:    func(i flow.StageInfo) { add("start %s", i.RuntimeStageID) },
		Read:          func(i flow.StageInfo, k string, v any) { add("read %s %s=%v", i.RuntimeStageID, k, v) },
		Write:         func(i flow.StageInfo, op flow.Op) { add("write %s %s %s", i.RuntimeStageID, op.Verb, op.Key) },
		StageEnd:      func(i flow.StageInfo) { add("end %s", i.RuntimeStageID) },
		Commit:        func(i flow.StageInfo, c *flow.Commit) { add("commit %s idx=%d", i.RuntimeStageID, c.Idx) },
		Decision:      func(i flow.StageInfo, d *flow.Decision) { add("decision %s %v", i.RuntimeStageID, d.Chosen) },
		StageExecuted: func(i flow.StageInfo, typ string) { add("executed %s %s", i.RuntimeStageID, typ) },
		Next:          func(i flow.StageInfo, to string) { add("next %s->%s", i.RuntimeStageID, to) },
		Loop:          func(i flow.StageInfo, to string, v int) { add("loop ->%s visit=%d iter=%d", to, v, i.LoopIteration) },
		Break:         func(i flow.StageInfo, why string) { add("break %s %s", i.RuntimeStageID, why) },
		Emit:          func(e flow.Event) { add("emit %s %s %v", e.RuntimeStageID, e.Name, e.Payload) },
		RunEnd:        func(i flow.StageInfo, out any) { add("run-end %v", out) },
	}
	k := flow.Key[int]("k")
	c := flow.NewBuilder("h").Keys(k).
		Stage("a", func(ctx context.Context, s *flow.Scope) (any, error) {
			v, _ := k.Get(s)
			s.Emit("tick", func() any { return v })
			k.Set(s, v+1)
			return nil, nil
		}).
		Decider("d", func(ctx context.Context, s *flow.Scope) (*flow.Decision, error) {
			return flow.Decide(s, []flow.Rule{{Label: "again", Branch: "again",
				When: func(r flow.Reader) bool { v, _ := k.Get(r); return v < 2 }}}, "stop"), nil
		},
			flow.Branch("again").LoopTo("a"),
			flow.Branch("stop").Stage("z", func(ctx context.Context, s *flow.Scope) (any, error) {
				s.Break("done")
				return "out", nil
			})).
		MustBuild()
	if _, err := c.Run(context.Background(), nil, flow.WithRunID("r"), flow.WithObserver("", h)); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"run-start r",
		"start a#0", "read a#0 k=<nil>", "emit a#0 tick 0", "write a#0 set k", "end a#0", "commit a#0 idx=1",
		"executed a#0 stage", "next a#0->d",
		"start d#1", "read d#1 k=1", "end d#1", "commit d#1 idx=2", "decision d#1 [again]", "executed d#1 decider",
		"loop ->a visit=1 iter=1",
		"start a#2", "read a#2 k=1", "emit a#2 tick 1", "write a#2 set k", "end a#2", "commit a#2 idx=3",
		"executed a#2 stage", "next a#2->d",
		"start d#3", "read d#3 k=2", "end d#3", "commit d#3 idx=4", "decision d#3 [stop]", "executed d#3 decider", "next d#3->z",
		"start z#4", "end z#4", "commit z#4 idx=5", "executed z#4 stage", "break z#4 done",
		"run-end out",
	}
	if diff := cmp.Diff(want, log); diff != "" {
		t.Errorf("hook order (-want +got):\n%s", diff)
	}
}

func TestObserverPanicsAreIsolated(t *testing.T) {
	var reported []string
	bad := &flow.Hooks{
		StageStart: func(flow.StageInfo) { panic("observer bug") },
		Emit:       func(flow.Event) { panic("emit bug") },
		Error:      func(flow.StageInfo, error) { panic("error hook bug") },
	}
	good := &flow.Hooks{Error: func(i flow.StageInfo, err error) { reported = append(reported, err.Error()) }}
	k := flow.Key[int]("k")
	c := flow.NewBuilder("p").Keys(k).Stage("a", func(ctx context.Context, s *flow.Scope) (any, error) {
		s.Emit("x", nil)
		k.Set(s, 1)
		return "ok", nil
	}).MustBuild()
	res, err := c.Run(context.Background(), nil, flow.WithObserver("bad", bad), flow.WithObserver("good", good))
	if err != nil || res.Output != "ok" {
		t.Fatalf("run broken by an observer: %v %v", res.Output, err)
	}
	if res.ObserverPanics != 2 {
		t.Errorf("panics = %d, want 2", res.ObserverPanics)
	}
	if len(reported) != 2 || !strings.Contains(reported[0], `observer "bad" panicked: observer bug`) {
		t.Errorf("reported = %q", reported)
	}
	// Attaching the same id again replaces, so the hook runs once.
	n := 0
	once := &flow.Hooks{StageStart: func(flow.StageInfo) { n++ }}
	if _, err := c.Run(context.Background(), nil, flow.WithObserver("x", once), flow.WithObserver("x", once)); err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Errorf("idempotent observer ran %d times, want 1", n)
	}
}

func TestEmitWithoutListenerCostsNothing(t *testing.T) {
	built := 0
	c := flow.NewBuilder("e").Stage("a", func(ctx context.Context, s *flow.Scope) (any, error) {
		allocs := testing.AllocsPerRun(100, func() {
			s.Emit("x", func() any { built++; return built })
		})
		return allocs, nil
	}).MustBuild()
	res, err := c.Run(context.Background(), nil, flow.WithObserver("", &flow.Hooks{StageStart: func(flow.StageInfo) {}}))
	if err != nil {
		t.Fatal(err)
	}
	if res.Output != 0.0 || built != 0 {
		t.Errorf("allocs %v, payload built %d times; want 0 and 0", res.Output, built)
	}
}
