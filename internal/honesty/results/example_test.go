// Runnable examples: the pure steps, and mounting the layer.

package results_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/internal/honesty/results"
)

// The three pure steps judge one call whose store did not hold the hour it asked about.
func ExamplePlanPeriods() {
	stale := coverage.Period{
		Queried: coverage.Span{From: "2026-09-26T09:00:00Z", To: "2026-09-26T10:00:00Z"},
		Held:    coverage.Held{Span: coverage.Span{From: "2026-08-27T02:00:00Z", To: "2026-09-26T02:00:00Z"}},
	}
	plan := results.PlanPeriods(
		[]results.RanCall{{ToolCallID: "c1", ToolName: "backup_runs"}},
		[]results.CallPeriod{{ToolCallID: "c1", Period: stale}},
		nil)
	rows := results.PeriodRowsOf(results.CheckPeriods(plan), results.Stamp{Turn: 1, Iteration: 1})
	b, _ := json.Marshal(rows[0])
	fmt.Println(string(b))
	// Output:
	// {"kind":"period","turn":1,"toolCallId":"c1","toolName":"backup_runs","iteration":1,"verdict":"not-held"}
}

// New returns the subflow and its mount; the parent declares the agent-state keys the mount
// reads and writes, as package state declares them, and mounts the layer at its loop head.
func ExampleNew() {
	layer, err := results.New(results.Deps{
		ArgumentOf: func(tool string) (string, bool) { return "window", tool == "search_logs" },
	})
	if err != nil {
		panic(err)
	}
	chart := flow.NewBuilder("agent").
		Keys(state.KeyIteration, results.KeyToolResultsIteration, state.KeyTurnNumber, state.KeyToolResults,
			state.KeyCoverageDeclared, state.KeyFindingsLedger).
		Stage("tool-calls", func(_ context.Context, s *flow.Scope) (any, error) {
			state.KeyToolResults.Set(s, []state.ToolResult{{ToolCallID: "s1", ToolName: "search_logs", Iteration: 1}})
			results.KeyToolResultsIteration.Set(s, 1)
			state.KeyIteration.Set(s, 2)
			state.KeyTurnNumber.Set(s, 1)
			return nil, nil
		}).
		Mount(layer.ID, layer.Chart, layer.Mount).
		MustBuild()
	res, err := chart.Run(context.Background(), nil)
	if err != nil {
		panic(err)
	}
	v, _, _ := flow.ValueAt(res.Record, len(res.Record.Commits)-1, state.KeyFindingsLedger.KeyName())
	b, _ := json.Marshal(v)
	fmt.Println(string(b))
	// Output:
	// [{"kind":"period","turn":1,"toolCallId":"s1","toolName":"search_logs","iteration":1,"verdict":"undeclared","argument":"window"}]
}
