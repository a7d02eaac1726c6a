// Tests for chart building: every refusal names the thing that is wrong.

package flow_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/flow"
)

func noop(ctx context.Context, s *flow.Scope) (any, error) { return nil, nil }

func pick(branch string) flow.DeciderFunc {
	return func(ctx context.Context, s *flow.Scope) (*flow.Decision, error) {
		return flow.Decide(s, nil, branch), nil
	}
}

func TestBuildRefusals(t *testing.T) {
	sub := flow.NewBuilder("sub").Stage("x", noop).MustBuild()
	tests := []struct {
		name  string
		build func() *flow.Builder
		want  []string
	}{
		{"empty id", func() *flow.Builder { return flow.NewBuilder("").Stage("a", noop) }, []string{"chart id is empty"}},
		{"no stages", func() *flow.Builder { return flow.NewBuilder("c") }, []string{"chart has no stages"}},
		{"duplicate stage", func() *flow.Builder { return flow.NewBuilder("c").Stage("a", noop).Stage("a", noop) },
			[]string{`duplicate node id "a"`}},
		{"missing func", func() *flow.Builder { return flow.NewBuilder("c").Stage("a", nil) }, []string{`stage "a" has no func`}},
		{"bad id", func() *flow.Builder { return flow.NewBuilder("c").Stage("a#1", noop) }, []string{`node id "a#1"`}},
		{"reserved id", func() *flow.Builder { return flow.NewBuilder("c").Stage("input", noop) }, []string{`node id "input"`}},
		{"loop to missing", func() *flow.Builder { return flow.NewBuilder("c").Stage("a", noop).LoopTo("nowhere") },
			[]string{`LoopTo("nowhere"): no node with that id`}},
		{"loop not last", func() *flow.Builder {
			return flow.NewBuilder("c").Stage("a", noop).Decider("d", pick("x"),
				flow.Branch("x").LoopTo("a").Stage("b", noop))
		}, []string{`LoopTo("a") must be the last node`}},
		{"decider without branches", func() *flow.Builder { return flow.NewBuilder("c").Decider("d", pick("x")) },
			[]string{`decider "d" has no branches`}},
		{"duplicate branch", func() *flow.Builder {
			return flow.NewBuilder("c").Decider("d", pick("x"), flow.Branch("x"), flow.Branch("x"))
		}, []string{`duplicate branch "x"`}},
		{"duplicate key", func() *flow.Builder {
			return flow.NewBuilder("c").Keys(flow.Key[int]("k"), flow.List[int]("k")).Stage("a", noop)
		}, []string{`key "k" declared twice`}},
		{"pausable without resume", func() *flow.Builder {
			return flow.NewBuilder("c").Pausable("p", flow.Pausable{
				Execute: func(context.Context, *flow.Scope) (*flow.Pause, error) { return nil, nil }})
		}, []string{`pausable stage "p" has no Resume func`}},
		{"pausable without funcs", func() *flow.Builder { return flow.NewBuilder("c").Pausable("p", flow.Pausable{}) },
			[]string{`pausable stage "p" has no Execute func`, `pausable stage "p" has no Resume func`}},
		{"mount without chart", func() *flow.Builder { return flow.NewBuilder("c").Mount("m", nil, flow.Mount{}) },
			[]string{`subflow mount "m" has no chart`}},
		{"duplicate across branch", func() *flow.Builder {
			return flow.NewBuilder("c").Stage("a", noop).Decider("d", pick("x"), flow.Branch("x").Stage("a", noop))
		}, []string{`duplicate node id "a"`}},
		{"fork child duplicate", func() *flow.Builder {
			return flow.NewBuilder("c").Stage("a", noop).Fork("f", flow.ForkOptions{}, flow.NewChild("a", noop))
		}, []string{`duplicate node id "a"`}},
		{"build a branch", func() *flow.Builder { return flow.Branch("x").Stage("a", noop) },
			[]string{`branch "x" is not a chart`}},
		{"chart builder as a branch", func() *flow.Builder {
			return flow.NewBuilder("c").Decider("d", pick("x"), flow.NewBuilder("x").Stage("a", noop))
		}, []string{`branch "x" was started with NewBuilder`}},
		{"keys on a branch", func() *flow.Builder {
			return flow.NewBuilder("c").Decider("d", pick("x"), flow.Branch("x").Keys(flow.Key[int]("k")).Stage("a", noop))
		}, []string{`branch "x" declares or redacts keys`}},
		{"several problems", func() *flow.Builder {
			return flow.NewBuilder("c").Stage("a", nil).Mount("m", sub, flow.Mount{}).LoopTo("zz")
		}, []string{`stage "a" has no func`, `LoopTo("zz")`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := tt.build().Build()
			if err == nil {
				t.Fatalf("Build succeeded (%v), want an error", c.ID())
			}
			if !strings.HasPrefix(err.Error(), "flow: chart ") {
				t.Errorf("error %q does not name the chart", err)
			}
			// Each problem is its own error in the tree, for errors.Is and As.
			multi, ok := err.(interface{ Unwrap() []error })
			if !ok || len(multi.Unwrap()) < len(tt.want) {
				t.Errorf("error %T does not unwrap to its %d problems", err, len(tt.want))
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestBuildKeepsKeysAndID(t *testing.T) {
	c := agentChart(t, 1, -1)
	if c.ID() != "agent" {
		t.Errorf("ID = %q", c.ID())
	}
	var names []string
	for _, k := range c.Structure().Keys {
		names = append(names, k.Name)
	}
	want := "iteration maxIterations userMessage history toolCalls finalContent meta"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("keys = %q, want %q", got, want)
	}
}
