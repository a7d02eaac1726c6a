// Layers as values: every combination of the five layers, given in either
// order, builds the same chart and records the same turn, and the shape of
// each is pinned by a golden written before layers were values (so the
// reshaping changed no byte of the chart or the record).

package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
	"github.com/google/go-cmp/cmp"
)

// layerOption is one layer's option, by the name the golden files use.
type layerOption struct {
	name string
	opt  agent.Option
}

func layerOptions() []layerOption {
	return []layerOption{
		{"results", agent.WithResultsLayer()},
		{"inputs", agent.WithInputsLayer()},
		{"time", agent.WithTimeLayer("UTC")},
		{"limits", agent.WithLimitsBlock()},
		{"output", agent.WithOutputSchema(json.RawMessage(`{"type":"object","required":["answer"]}`))},
	}
}

// coverageTool returns a result that declares what it checked, so the
// results and limits layers have something to judge and print.
func coverageTool(t testing.TB) *tool.Tool {
	t.Helper()
	return tool.Must(tool.NewRaw("search_logs", "Search a service's logs.",
		json.RawMessage(`{"type":"object","properties":{"service":{"type":"string"}},"required":["service"]}`),
		func(context.Context, json.RawMessage) (any, error) {
			return json.RawMessage(`{"content":"2 errors","af_coverage":{"checked":["checkout"],"not_checked":["billing"]}}`), nil
		}))
}

// layerShape runs one turn with opts and returns the chart's structure and
// the record's shape: every commit's stage, reads, ops and route rule, the
// events, the answer and the layers' order.
func layerShape(t *testing.T, opts []agent.Option) string {
	t.Helper()
	p := scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{call("c1", "search_logs", `{"service":"checkout"}`)}},
		scripted.Reply{Content: `{"answer":"checkout has 2 errors"}`},
	)
	fixed := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	all := append([]agent.Option{agent.WithTools(coverageTool(t)), agent.WithClock(func() time.Time { return fixed })}, opts...)
	a, err := agent.New(p, all...)
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Run(context.Background(), agent.Input{Message: "Errors in checkout?"})
	if err != nil {
		t.Fatal(err)
	}
	rec := res.Record
	// The standing the Result keeps (prepare-final's fold, when the
	// results layer is armed) is the fold of the turn's own record.
	if diff := cmp.Diff(rec.Assessment(), res.Assessment); diff != "" {
		t.Errorf("Result.Assessment is not the record's fold (-record +result):\n%s", diff)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "structure: %s\n", rec.Structure)
	for _, c := range rec.Log.Commits {
		var ops []string
		for _, op := range c.Ops {
			ops = append(ops, op.Key+":"+string(op.Verb))
		}
		fmt.Fprintf(&b, "%s reads=%v ops=%v", c.RuntimeStageID, c.Reads, ops)
		if c.Control != nil {
			fmt.Fprintf(&b, " control=%s/%s", c.Control.Branch, c.Control.Rule)
		}
		b.WriteString("\n")
	}
	for _, e := range rec.Events.All() {
		fmt.Fprintf(&b, "event %s %s\n", e.Meta.RuntimeStageID, e.Type)
	}
	fmt.Fprintf(&b, "answer: %q\n", res.Answer)
	return b.String()
}

// TestLayerCombinations builds each layer alone and in every combination, in
// the declared order and reversed, and compares the chart and the record
// with the golden of that combination.
func TestLayerCombinations(t *testing.T) {
	all := layerOptions()
	for mask := 0; mask < 1<<len(all); mask++ {
		var chosen []layerOption
		for i, lo := range all {
			if mask&(1<<i) != 0 {
				chosen = append(chosen, lo)
			}
		}
		names := []string{"plain"}
		if len(chosen) > 0 {
			names = nil
			for _, lo := range chosen {
				names = append(names, lo.name)
			}
		}
		name := strings.Join(names, "+")
		t.Run(name, func(t *testing.T) {
			var fwd, rev []agent.Option
			for _, lo := range chosen {
				fwd = append(fwd, lo.opt)
			}
			rev = slices.Clone(fwd)
			slices.Reverse(rev)
			got := layerShape(t, fwd)
			if back := layerShape(t, rev); back != got {
				t.Errorf("the options in reverse order build another run:\n%s", cmp.Diff(got, back))
			}
			path := filepath.Join("testdata", "layers", name+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("chart and record (-golden +got):\n%s", diff)
			}
		})
	}
}
