// This file holds the sf-results chart: its keys, its four stages and the deps they are handed.

package results

import (
	"context"
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	"github.com/agentfootprint/agentfootprint-go/flow"
	ledgerops "github.com/agentfootprint/agentfootprint-go/internal/honesty/ledger"
)

// Wire facts of the subflow: its mount id and its stage ids.
const (
	SubflowID    = "sf-results"
	StageDeclare = "declare"
	StageVerify  = "verify"
	StageRecord  = "record"
	StageResolve = "resolve"
)

// The subflow's own keys: inputs frozen by the mount, then one key per stage.
var (
	keyCalls          = flow.Key[[]RanCall]("calls")
	keyPeriods        = flow.Key[[]CallPeriod]("periods")
	keyBatchIteration = flow.Key[int]("batchIteration")
	keyTurnNumber     = state.KeyTurnNumber // the subflow keeps the agent's key for the turn
	keyPeriodPlan     = flow.Key[[]PlannedPeriod]("periodPlan")
	keyPeriodChecks   = flow.Key[[]CheckedPeriod]("periodChecks")
	keyPeriodRows     = flow.Key[[]boundary.PeriodRow]("periodRows")
	keyTimeInputs     = flow.Key[map[string]TimeInput]("timeInputs")
)

// Deps is what the stages are handed from outside the subflow: closures, never state.
type Deps struct {
	// ArgumentOf names a tool's period argument. nil means no tool declares one.
	ArgumentOf ArgumentOf
	// EmitRows fires the ledger's events for the rows the Record stage files, inside the
	// subflow; ctx is the Record stage's, so a caller can find its per-run state in it. nil
	// means ledgerops.EmitPeriodRows (one agentfootprint.findings.period per row, through the
	// scope's emit channel).
	EmitRows func(ctx context.Context, s *flow.Scope, rows []boundary.PeriodRow)
	// TimeInputs, under the time layer, reads from the agent's state what the record holds about
	// each call of the batch being judged (its asked window, drift, the tool's retention), by
	// call id. The mount hands the result to the subflow, and Verify runs TimeChecks on it for
	// each judged call, filling in the verdict and the declared periods. nil means no time layer.
	TimeInputs func(parent flow.Reader, calls []RanCall, iteration int) map[string]TimeInput
}

// Chart builds the sf-results subflow. Every stage does nothing when the mount handed no batch.
func Chart(deps Deps) (*flow.Chart, error) {
	emit := deps.EmitRows
	if emit == nil {
		emit = func(_ context.Context, s *flow.Scope, rows []boundary.PeriodRow) { ledgerops.EmitPeriodRows(s, rows) }
	}
	c, err := flow.NewBuilder(SubflowID).
		Keys(keyCalls, keyPeriods, keyBatchIteration, keyTurnNumber, keyPeriodPlan, keyPeriodChecks, keyPeriodRows, keyTimeInputs).
		Stage(StageDeclare, func(_ context.Context, s *flow.Scope) (any, error) {
			calls, _ := keyCalls.Get(s)
			if len(calls) == 0 {
				return nil, nil
			}
			periods, _ := keyPeriods.Get(s)
			if plan := PlanPeriods(calls, periods, deps.ArgumentOf); len(plan) > 0 {
				keyPeriodPlan.Set(s, plan)
			}
			return nil, nil
		}).
		Stage(StageVerify, func(_ context.Context, s *flow.Scope) (any, error) {
			plan, _ := keyPeriodPlan.Get(s)
			if len(plan) == 0 {
				return nil, nil
			}
			checks := CheckPeriods(plan)
			if times, _ := keyTimeInputs.Get(s); len(times) > 0 {
				checkTimes(checks, plan, times)
			}
			keyPeriodChecks.Set(s, checks)
			return nil, nil
		}).
		Stage(StageRecord, func(ctx context.Context, s *flow.Scope) (any, error) {
			checks, _ := keyPeriodChecks.Get(s)
			if len(checks) == 0 {
				return nil, nil
			}
			it, _ := keyBatchIteration.Get(s)
			turn, _ := keyTurnNumber.Get(s)
			rows := PeriodRowsOf(checks, Stamp{Turn: turn, Iteration: it})
			keyPeriodRows.Set(s, rows)
			emit(ctx, s, rows)
			return nil, nil
		}).
		Stage(StageResolve, func(context.Context, *flow.Scope) (any, error) {
			// A call that already ran can only be flagged, and the rows are the flags. Later
			// outcome checks that can still ask or refuse will decide here.
			return nil, nil
		}).
		Build()
	if err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	return c, nil
}

// checkTimes runs the time layer's checks for every judged call the mount handed a TimeInput for,
// with the call's own verdict and declared periods.
func checkTimes(checks []CheckedPeriod, plan []PlannedPeriod, times map[string]TimeInput) {
	for i := range checks {
		in, ok := times[checks[i].ToolCallID]
		if !ok {
			continue
		}
		in.Verdict = checks[i].Verdict
		in.Declared = plan[i].Declared
		f := TimeChecks(in)
		checks[i].Time = &f
	}
}
