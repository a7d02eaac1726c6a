package scenario

import (
	"context"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
)

// An agent rebuilt from Parts answers the same turn again and again: its model replays the
// file's replies by position in the conversation instead of running out after one run.
func TestPartsRebuildRerunsTheTurn(t *testing.T) {
	f, err := Demo()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	p, err := f.Parts()
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Tools) != 3 || len(p.Units) == 0 {
		t.Fatalf("parts: %d tools, %d units; want the demo's 3 tools and its units", len(p.Tools), len(p.Units))
	}
	opts := append(append([]agent.Option{}, p.Options...), agent.WithUnits(p.Units...), agent.WithTools(p.Tools...))
	for i := 0; i < 3; i++ {
		// Canned tools count calls per agent build, so each rerun gets fresh parts.
		if i > 0 {
			if p, err = f.Parts(); err != nil {
				t.Fatal(err)
			}
			opts = append(append([]agent.Option{}, p.Options...), agent.WithUnits(p.Units...), agent.WithTools(p.Tools...))
		}
		a, err := agent.New(p.Provider, opts...)
		if err != nil {
			t.Fatal(err)
		}
		res, err := a.Run(context.Background(), agent.Input{Message: f.Question()})
		if err != nil {
			t.Fatalf("rerun %d: %v", i, err)
		}
		if res.Answer != rep.Answer {
			t.Errorf("rerun %d answered %q, want the scenario's answer %q", i, res.Answer, rep.Answer)
		}
	}
}
