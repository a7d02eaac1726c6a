// Benchmarks: the subflow judging a batch of three calls, against the same chart without it, and
// the three pure steps alone.

package results

import (
	"context"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	"github.com/agentfootprint/agentfootprint-go/flow"
)

func benchState() parentState {
	return parentState{iteration: 2, stamp: intp(1), turn: 1,
		results: []state.ToolResult{{ToolCallID: "c1", ToolName: "backup_runs"}, {ToolCallID: "c2", ToolName: "search_logs"}, {ToolCallID: "c3", ToolName: "backup_runs"}},
		declared: []coverage.DeclaredCoverage{absenceRow("c1", 1, stale),
			{Kind: boundary.KindLedger, ToolName: "backup_runs", ToolCallID: "c3", Iteration: 1, Period: &fresh}}}
}

// BenchmarkSubflowJudgeBatch runs seed -> sf-results -> done over a batch of three calls that
// files three rows.
func BenchmarkSubflowJudgeBatch(b *testing.B) {
	c := parentChart(b, benchState(), Deps{ArgumentOf: argWindow})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Run(ctx, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParentWithoutLayer runs the same parent chart with no mount, the unarmed baseline.
func BenchmarkParentWithoutLayer(b *testing.B) {
	st := benchState()
	c := flow.NewBuilder("agent-test").
		Keys(pIteration, pStamp, pTurn, pToolResults, pDeclared, pLedger).
		Stage("seed", func(_ context.Context, s *flow.Scope) (any, error) {
			pIteration.Set(s, st.iteration)
			pStamp.Set(s, *st.stamp)
			pTurn.Set(s, st.turn)
			pToolResults.Set(s, st.results)
			pDeclared.Set(s, st.declared)
			return nil, nil
		}).
		Stage("done", func(_ context.Context, s *flow.Scope) (any, error) { return pLedger.Get(s), nil }).
		MustBuild()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Run(ctx, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPureSteps runs PlanPeriods, CheckPeriods and PeriodRowsOf over the same batch.
func BenchmarkPureSteps(b *testing.B) {
	calls := []RanCall{{"c1", "backup_runs"}, {"c2", "search_logs"}, {"c3", "backup_runs"}}
	periods := []CallPeriod{{"c1", stale}, {"c3", fresh}}
	b.ReportAllocs()
	for b.Loop() {
		rows := PeriodRowsOf(CheckPeriods(PlanPeriods(calls, periods, argWindow)), Stamp{Turn: 1, Iteration: 1})
		if len(rows) != 3 {
			b.Fatal(len(rows))
		}
	}
}

// BenchmarkSubflowNothingToJudge runs seed -> sf-results -> done over a batch of one call that
// declared no period, of a tool without a period argument: the visit most loops make.
func BenchmarkSubflowNothingToJudge(b *testing.B) {
	st := parentState{iteration: 2, stamp: intp(1), turn: 1,
		results: []state.ToolResult{{ToolCallID: "c1", ToolName: "service_status"}}}
	c := parentChart(b, st, Deps{})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Run(ctx, nil); err != nil {
			b.Fatal(err)
		}
	}
}
