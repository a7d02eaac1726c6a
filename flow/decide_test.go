// Tests for deciders: rule evidence (reads, conditions, errors), defaults
// and decisions that name a branch the decider does not have.

package flow_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/google/go-cmp/cmp"
)

// decideOnce runs a one-decider chart over inputs and returns its evidence.
func decideOnce(t *testing.T, inputs map[string]any, rules []flow.Rule) *flow.Decision {
	t.Helper()
	c := flow.NewBuilder("d").Keys(kIter, kUser, kCalls).
		Decider("route", func(ctx context.Context, s *flow.Scope) (*flow.Decision, error) {
			return flow.Decide(s, rules, "fallback"), nil
		}, flow.Branch("yes"), flow.Branch("no"), flow.Branch("fallback")).MustBuild()
	res, err := c.Run(context.Background(), inputs)
	if err != nil {
		t.Fatal(err)
	}
	return res.Record.Commits[1].Decision
}

func TestConditionOps(t *testing.T) {
	tests := []struct {
		op        string
		threshold any
		actual    any
		pass      bool
	}{
		{"eq", 3, 3, true}, {"eq", 3.0, 3, true}, {"eq", 4, 3, false},
		{"ne", 4, 3, true}, {"ne", 3, 3, false},
		{"gt", 2, 3, true}, {"gt", 3, 3, false},
		{"gte", 3, 3, true}, {"lt", 4, 3, true}, {"lte", 2, 3, false},
		{"in", []int{1, 3}, 3, true}, {"in", []int{1, 2}, 3, false},
		{"notIn", []int{1, 2}, 3, true}, {"notIn", []int{3}, 3, false},
	}
	for _, tt := range tests {
		d := decideOnce(t, map[string]any{"iteration": tt.actual}, []flow.Rule{{
			Label: "cond", Branch: "yes", Conditions: []flow.Condition{{Key: "iteration", Op: tt.op, Threshold: tt.threshold}},
		}})
		ce := d.Rules[0].Conditions[0]
		if ce.Pass != tt.pass || d.Rules[0].Matched != tt.pass {
			t.Errorf("%v %s %v: pass %v, want %v", tt.actual, tt.op, tt.threshold, ce.Pass, tt.pass)
		}
		if ce.Actual != "3" {
			t.Errorf("actual summary = %q", ce.Actual)
		}
	}
	// Strings order; a bad op or threshold is recorded, never a panic.
	d := decideOnce(t, map[string]any{"userMessage": "beta"}, []flow.Rule{
		{Label: "s", Branch: "no", Conditions: []flow.Condition{{Key: "userMessage", Op: "gt", Threshold: "alpha"}, {Key: "userMessage", Op: "zz"}}},
		{Label: "absent", Branch: "no", Conditions: []flow.Condition{{Key: "iteration", Op: "eq", Threshold: 1}}},
		{Label: "in needs list", Branch: "no", Conditions: []flow.Condition{{Key: "userMessage", Op: "in", Threshold: "beta"}}},
	})
	got := []flow.ConditionEvidence{d.Rules[0].Conditions[0], d.Rules[0].Conditions[1], d.Rules[1].Conditions[0], d.Rules[2].Conditions[0]}
	want := []flow.ConditionEvidence{
		{Key: "userMessage", Op: "gt", Threshold: `"alpha"`, Actual: `"beta"`, Pass: true},
		{Key: "userMessage", Op: "zz", Threshold: "null", Actual: `error: unknown condition op "zz"`},
		{Key: "iteration", Op: "eq", Threshold: "1", Actual: "(absent)"},
		{Key: "userMessage", Op: "in", Threshold: `"beta"`, Actual: "error: op in wants a list threshold"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("evidence (-want +got):\n%s", diff)
	}
	if !d.Default || d.Chosen[0] != "fallback" {
		t.Errorf("chosen %v default %v", d.Chosen, d.Default)
	}
}

func TestDecideEvidence(t *testing.T) {
	long := strings.Repeat("é", 100)
	d := decideOnce(t, map[string]any{"iteration": 2, "userMessage": long, "toolCalls": []string{"a"}}, []flow.Rule{
		{Label: "panics", Branch: "no", When: func(r flow.Reader) bool { _, _ = r.Get("iteration"); panic("bad rule") }},
		{Label: "long", Branch: "no", Conditions: []flow.Condition{{Key: "userMessage", Op: "eq", Threshold: "x"}}},
		{Label: "calls and budget", Branch: "yes", When: func(r flow.Reader) bool {
			c, _ := kCalls.Get(r)
			return len(c) > 0 && r.Has("iteration")
		}},
		{Label: "never evaluated", Branch: "no", When: func(flow.Reader) bool { return true }},
	})
	if d.Default || !cmp.Equal(d.Chosen, []string{"yes"}) || len(d.Rules) != 3 {
		t.Fatalf("decision = %+v", d)
	}
	if r := d.Rules[0]; r.Matched || r.Error != "panic: bad rule" || !cmp.Equal(r.Reads, []string{"iteration"}) {
		t.Errorf("panicking rule = %+v", r)
	}
	if a := d.Rules[1].Conditions[0].Actual; len([]rune(a)) != 80 || !strings.HasSuffix(a, "…") {
		t.Errorf("long actual not bounded to 80 chars: %d %q", len([]rune(a)), a)
	}
	if r := d.Rules[2]; !r.Matched || !cmp.Equal(r.Reads, []string{"toolCalls", "iteration"}) || r.Index != 2 {
		t.Errorf("matching rule = %+v", r)
	}
}

func TestDeciderFailures(t *testing.T) {
	tests := []struct {
		name string
		fn   flow.DeciderFunc
		want string
	}{
		{"unknown branch", pick("elsewhere"), `decider "d" chose unknown branch "elsewhere"`},
		{"nil decision", func(context.Context, *flow.Scope) (*flow.Decision, error) { return nil, nil }, "returned no decision"},
		{"error", func(context.Context, *flow.Scope) (*flow.Decision, error) { return nil, errors.New("cannot decide") }, "cannot decide"},
		{"panic", func(context.Context, *flow.Scope) (*flow.Decision, error) { panic("oops") }, `stage "d" panicked: oops`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := flow.NewBuilder("c").Decider("d", tt.fn, flow.Branch("a").Stage("a", noop)).MustBuild()
			res, err := c.Run(context.Background(), nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
			if n := len(res.Record.Commits); n != 2 || !strings.Contains(res.Record.Commits[1].Error, tt.want) {
				t.Errorf("commits %v, error %q", runtimeIDs(res.Record), res.Record.Commits[1].Error)
			}
		})
	}
}

func TestRepeatedDecisionsShareOnlyWhenEqual(t *testing.T) {
	n := flow.Key[int]("n")
	c := flow.NewBuilder("loop").Keys(n).
		Stage("inc", func(ctx context.Context, s *flow.Scope) (any, error) {
			v, _ := n.Get(s)
			n.Set(s, v+1)
			return nil, nil
		}).
		Decider("cond", func(ctx context.Context, s *flow.Scope) (*flow.Decision, error) {
			return flow.Decide(s, []flow.Rule{{Label: "below 3", Branch: "again",
				Conditions: []flow.Condition{{Key: "n", Op: "lt", Threshold: 3}}}}, "stop"), nil
		}, flow.Branch("again").LoopTo("inc"), flow.Branch("stop")).
		Decider("same", func(ctx context.Context, s *flow.Scope) (*flow.Decision, error) {
			return flow.Decide(s, []flow.Rule{{Label: "always", Branch: "on",
				When: func(r flow.Reader) bool { return r.Has("n") }}}, "off"), nil
		}, flow.Branch("on"), flow.Branch("off")).
		MustBuild()
	res, err := c.Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var actuals []string
	for _, cm := range res.Record.Commits {
		if cm.StageID == "cond" {
			actuals = append(actuals, cm.Decision.Rules[0].Conditions[0].Actual)
		}
	}
	if !cmp.Equal(actuals, []string{"1", "2", "3"}) {
		t.Errorf("condition actuals = %v, want 1 2 3 (each decision keeps its own evidence)", actuals)
	}
}
