// Tests for forks and selectors: declaration-order commits, sibling
// conflicts, joined errors and control edges to the selector's decision.

package flow_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/google/go-cmp/cmp"
)

func sleepy(d time.Duration, f func(s *flow.Scope)) flow.StageFunc {
	return func(ctx context.Context, s *flow.Scope) (any, error) {
		time.Sleep(d)
		f(s)
		return nil, nil
	}
}

func TestForkCommitsInDeclarationOrder(t *testing.T) {
	l := flow.List[string]("l")
	c := flow.NewBuilder("f").Keys(l).Fork("f", flow.ForkOptions{},
		flow.NewChild("slow", sleepy(20*time.Millisecond, func(s *flow.Scope) { l.Append(s, "slow") })),
		flow.NewChild("fast", sleepy(0, func(s *flow.Scope) { l.Append(s, "fast") })),
	).Stage("read", func(ctx context.Context, s *flow.Scope) (any, error) { return l.Get(s), nil }).MustBuild()
	res, err := c.Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"input", "slow#0", "fast#1", "read#2"}, runtimeIDs(res.Record)); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"slow", "fast"}, res.Output); diff != "" {
		t.Errorf("appends (-want +got):\n%s", diff)
	}
}

func TestForkConflictsAndErrors(t *testing.T) {
	k := flow.Key[int]("k")
	c := flow.NewBuilder("f").Keys(k).Fork("f", flow.ForkOptions{},
		flow.NewChild("a", sleepy(0, func(s *flow.Scope) { k.Set(s, 1) })),
		flow.NewChild("b", sleepy(0, func(s *flow.Scope) { k.Set(s, 2) })),
	).MustBuild()
	res, err := c.Run(context.Background(), nil)
	if err == nil || !strings.Contains(err.Error(), `parallel children a#0, b#1 all write key "k"`) {
		t.Fatalf("err = %v, want a sibling conflict of a#0 and b#1 on k", err)
	}
	if len(res.Record.Commits) != 3 || res.Record.Commits[2].Error == "" {
		t.Errorf("commits %v, second error %q", runtimeIDs(res.Record), res.Record.Commits[2].Error)
	}

	boom1, boom2 := errors.New("one"), errors.New("two")
	c2 := flow.NewBuilder("g").Fork("f", flow.ForkOptions{},
		flow.NewChild("a", func(ctx context.Context, s *flow.Scope) (any, error) { return nil, boom1 }),
		flow.NewChild("b", func(ctx context.Context, s *flow.Scope) (any, error) { return nil, boom2 }),
	).MustBuild()
	_, err = c2.Run(context.Background(), nil)
	if !errors.Is(err, boom1) || !errors.Is(err, boom2) {
		t.Errorf("err = %v, want both child errors joined", err)
	}

	c3 := flow.NewBuilder("h").Fork("f", flow.ForkOptions{FailFast: true},
		flow.NewChild("a", func(ctx context.Context, s *flow.Scope) (any, error) { return nil, boom1 }),
		flow.NewChild("b", func(ctx context.Context, s *flow.Scope) (any, error) {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(5 * time.Second):
				return nil, errors.New("not cancelled")
			}
		}),
	).MustBuild()
	_, err = c3.Run(context.Background(), nil)
	if !errors.Is(err, context.Canceled) || !errors.Is(err, boom1) {
		t.Errorf("fail-fast err = %v", err)
	}
}

func TestSelector(t *testing.T) {
	l := flow.List[string]("l")
	n := flow.Key[int]("n")
	c := flow.NewBuilder("s").Keys(l, n).Selector("pick", func(ctx context.Context, s *flow.Scope) (*flow.Decision, error) {
		return flow.Select(s, []flow.Rule{
			{Label: "big", Branch: "c", Conditions: []flow.Condition{{Key: "n", Op: "gt", Threshold: 5}}},
			{Label: "small", Branch: "b", Conditions: []flow.Condition{{Key: "n", Op: "lt", Threshold: 5}}},
			{Label: "any", Branch: "a", Conditions: []flow.Condition{{Key: "n", Op: "gte", Threshold: 0}}},
		}), nil
	}, flow.ForkOptions{},
		flow.NewChild("a", sleepy(0, func(s *flow.Scope) { l.Append(s, "a") })),
		flow.NewChild("b", sleepy(0, func(s *flow.Scope) { l.Append(s, "b") })),
		flow.NewChild("c", sleepy(0, func(s *flow.Scope) { l.Append(s, "c") })),
	).MustBuild()
	res, err := c.Run(context.Background(), map[string]any{"n": 9})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"input", "pick#0", "a#1", "c#2"}, runtimeIDs(res.Record)); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
	d := res.Record.Commits[1].Decision
	if !d.Multi || !cmp.Equal(d.Chosen, []string{"c", "a"}) {
		t.Errorf("decision chosen %v multi %v", d.Chosen, d.Multi)
	}
	ctl := res.Record.Commits[3].Control
	if ctl == nil || *ctl != (flow.Control{Decider: "pick#0", Branch: "c", Rule: "big", RuleIndex: 0}) {
		t.Errorf("control of c = %+v", ctl)
	}
	b := mustJSON(t, res.Record)
	if !strings.Contains(string(b), `"chosen": [`) {
		t.Error("selector chosen is not written as a list")
	}
}

func TestDecideInsideForkChildren(t *testing.T) {
	n := flow.Key[int]("n")
	child := func(ctx context.Context, s *flow.Scope) (any, error) {
		for range 50 {
			d := flow.Decide(s, []flow.Rule{{Label: "big", Branch: "b", Conditions: []flow.Condition{{Key: "n", Op: "gt", Threshold: 1}}}}, "a")
			if d.Chosen[0] != "b" {
				return nil, errors.New("wrong branch")
			}
		}
		return nil, nil
	}
	c := flow.NewBuilder("p").Keys(n).Fork("f", flow.ForkOptions{},
		flow.NewChild("x", child), flow.NewChild("y", child), flow.NewChild("z", child)).MustBuild()
	if _, err := c.Run(context.Background(), map[string]any{"n": 2}); err != nil {
		t.Fatal(err)
	}
}
