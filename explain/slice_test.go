// Acceptance scenario 7: the control edge of a misfiring decision survives
// saving the record and reading it in a fresh process.

package explain_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/explain"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/google/go-cmp/cmp"
)

const loanRule = "prime credit and affordable debt ratio"

// loanChart normalises the debt ratio with the wrong income (annual instead
// of monthly), so the decider approves a loan it should refuse.
func loanChart(t testing.TB) *flow.Chart {
	t.Helper()
	debt := flow.Key[float64]("monthlyDebt")
	monthly := flow.Key[float64]("monthlyIncome")
	score := flow.Key[int]("creditScore")
	ratio := flow.Key[float64]("debtRatio")
	decision := flow.Key[string]("decision")
	c, err := flow.NewBuilder("loan").
		Keys(debt, monthly, score, ratio, decision).
		Stage("normalize", func(ctx context.Context, s *flow.Scope) (any, error) {
			d, _ := debt.Get(s)
			m, _ := monthly.Get(s)
			ratio.Set(s, d/(m*12)) // the bug: annual income
			return nil, nil
		}).
		Decider("route", func(ctx context.Context, s *flow.Scope) (*flow.Decision, error) {
			return flow.Decide(s, []flow.Rule{{Label: loanRule, Branch: "approve",
				When: func(r flow.Reader) bool {
					sc, _ := score.Get(r)
					q, _ := ratio.Get(r)
					return sc >= 700 && q < 0.4
				}}}, "refer"), nil
		},
			flow.Branch("approve").Stage("approve", func(ctx context.Context, s *flow.Scope) (any, error) {
				decision.Set(s, "approved")
				return "approved", nil
			}),
			flow.Branch("refer").Stage("refer", func(ctx context.Context, s *flow.Scope) (any, error) {
				decision.Set(s, "referred")
				return "referred", nil
			}),
		).Build()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestFreshProcessSlice is the child half of TestScenario7.
func TestFreshProcessSlice(t *testing.T) {
	in, out := os.Getenv("EXPLAIN_LOG_IN"), os.Getenv("EXPLAIN_SLICE_OUT")
	if in == "" || out == "" {
		t.Skip("child process of TestScenario7 only")
	}
	data, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	log, err := explain.DecodeLog(data)
	if err != nil {
		t.Fatal(err)
	}
	sl, err := explain.Slice(log, os.Getenv("EXPLAIN_SLICE_STEP"), flow.SliceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, chainJSON(t, sl), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestScenario7ControlEdgeAfterReload(t *testing.T) {
	res, err := loanChart(t).Run(context.Background(), map[string]any{
		"monthlyDebt": 2400.0, "monthlyIncome": 4000.0, "creditScore": 720,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Output != "approved" {
		t.Fatalf("output = %v, want the misfired approval", res.Output)
	}
	var step, normalize string
	for _, c := range res.Record.Commits {
		switch c.StageID {
		case "approve":
			step = c.RuntimeStageID
		case "normalize":
			normalize = c.RuntimeStageID
		}
	}
	live, err := explain.Slice(res.Record, step, flow.SliceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	logPath, outPath := filepath.Join(dir, "log.json"), filepath.Join(dir, "slice.json")
	data, err := json.Marshal(res.Record)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(logPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestFreshProcessSlice$", "-test.count=1")
	cmd.Env = append(os.Environ(), "EXPLAIN_LOG_IN="+logPath, "EXPLAIN_SLICE_OUT="+outPath, "EXPLAIN_SLICE_STEP="+step)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("fresh process: %v\n%s", err, out)
	}
	freshJSON, err := os.ReadFile(outPath)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(chainJSON(t, live)), string(freshJSON)); d != "" {
		t.Fatalf("slice after reload differs (-live +fresh):\n%s", d)
	}
	var fresh flow.SliceResult
	if err := json.Unmarshal(freshJSON, &fresh); err != nil {
		t.Fatal(err)
	}
	hasControl := slices.ContainsFunc(fresh.Edges, func(e flow.SliceEdge) bool {
		return e.Kind == flow.EdgeControl && e.From == step && e.Rule == loanRule
	})
	if !hasControl {
		t.Errorf("edges = %+v, want a control edge from %s labelled %q", fresh.Edges, step, loanRule)
	}
	reached := slices.ContainsFunc(fresh.Edges, func(e flow.SliceEdge) bool {
		return e.Kind == flow.EdgeData && e.To == normalize && e.Key == "debtRatio"
	})
	if !reached {
		t.Errorf("edges = %+v, want a data edge to %s through debtRatio", fresh.Edges, normalize)
	}
	if len(fresh.Flags) != 0 {
		t.Errorf("flags = %v, want none", fresh.Flags)
	}
}
