// This file holds the mount: how the agent places sf-results at its loop head, what the input
// mapping reads from the agent's state, and the one op the output mapping writes.

package results

import (
	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	"github.com/agentfootprint/agentfootprint-go/flow"
	ledgerops "github.com/agentfootprint/agentfootprint-go/internal/honesty/ledger"
)

// Layer is everything the agent needs to mount the results layer:
//
//	l, err := results.New(results.Deps{ArgumentOf: argOf})
//	b.Mount(l.ID, l.Chart, l.Mount)
//
// The parent chart must declare the agent-state keys the mount reads and writes, as package state
// declares them: iteration, toolResultsIteration, turnNumber, toolResults, coverageDeclared and
// findingsLedger.
type Layer struct {
	// ID is the mount's node id, "sf-results".
	ID string
	// Chart is the subflow.
	Chart *flow.Chart
	// Mount holds the input and output mappings over the agent's state keys.
	Mount flow.Mount
}

// New builds the results layer for one agent.
func New(deps Deps) (Layer, error) {
	c, err := Chart(deps)
	if err != nil {
		return Layer{}, err
	}
	in := Input
	if deps.TimeInputs != nil {
		in = func(parent flow.Reader) (map[string]any, error) { return inputWithTimes(parent, deps.TimeInputs) }
	}
	return Layer{ID: SubflowID, Chart: c, Mount: flow.Mount{Input: in, Output: Output}}, nil
}

// inputWithTimes is Input plus, for a visit with a batch, the time layer's inputs for its calls.
func inputWithTimes(parent flow.Reader, timesOf func(flow.Reader, []RanCall, int) map[string]TimeInput) (map[string]any, error) {
	in, err := Input(parent)
	if err != nil {
		return nil, err
	}
	it, ok := in[keyBatchIteration.KeyName()].(int)
	if !ok {
		return in, nil
	}
	calls, _ := in[keyCalls.KeyName()].([]RanCall)
	if times := timesOf(parent, calls, it); len(times) > 0 {
		in[keyTimeInputs.KeyName()] = times
	}
	return in, nil
}

// Input is the mount's input mapping. Without a batch to judge (see BatchToJudge) it hands the
// subflow an empty calls list and nothing else. With one, it hands the batch's calls from
// toolResults, the periods declared on this batch's coverageDeclared rows (only when there are
// some), the batch's iteration and the turn (when the agent's state holds one). It reads every
// value through its typed key; it never fails, and the error is the mount's signature.
func Input(parent flow.Reader) (map[string]any, error) {
	stamp, ok := BatchToJudge(parent)
	if !ok {
		return map[string]any{keyCalls.KeyName(): []RanCall{}}, nil
	}
	tr, _ := state.KeyToolResults.Get(parent)
	calls := callsOf(tr)
	in := map[string]any{
		keyCalls.KeyName():          calls,
		keyBatchIteration.KeyName(): stamp,
	}
	if t, ok := state.KeyTurnNumber.Get(parent); ok {
		in[keyTurnNumber.KeyName()] = t
	}
	rows := state.KeyCoverageDeclared.Get(parent)
	if ps := PeriodsOf(rows, calls, stamp); len(ps) > 0 {
		in[keyPeriods.KeyName()] = ps
	}
	return in, nil
}

// Output is the mount's output mapping: one append of the Record stage's rows to findingsLedger,
// or no op at all when it filed none.
func Output(res flow.SubflowResult, _ flow.Reader) ([]flow.Op, error) {
	v, _ := res.State.Get(keyPeriodRows.KeyName())
	rows, _ := v.([]boundary.PeriodRow)
	if len(rows) == 0 {
		return nil, nil
	}
	return []flow.Op{state.KeyFindingsLedger.AppendOp(ledgerops.PeriodRowsOf(rows)...)}, nil
}

// PeriodsOf picks the periods the batch declared: every coverageDeclared row of the batch's
// iteration that carries a period and names a call of the batch, in row order.
func PeriodsOf(rows []coverage.DeclaredCoverage, calls []RanCall, iteration int) []CallPeriod {
	inBatch := make(map[string]bool, len(calls))
	for _, c := range calls {
		inBatch[c.ToolCallID] = true
	}
	var out []CallPeriod
	for _, r := range rows {
		if r.Iteration != iteration || r.Period == nil || r.ToolCallID == "" || !inBatch[r.ToolCallID] {
			continue
		}
		out = append(out, CallPeriod{ToolCallID: r.ToolCallID, Period: *r.Period})
	}
	return out
}

// callsOf is the batch's identities, in toolResults order: each result's call id and tool name.
func callsOf(results []state.ToolResult) []RanCall {
	out := make([]RanCall, 0, len(results))
	for _, r := range results {
		out = append(out, RanCall{ToolCallID: r.ToolCallID, ToolName: r.ToolName})
	}
	return out
}
