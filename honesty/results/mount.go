// This file holds the mount: how the agent places sf-results at its loop head, what the input
// mapping reads from the agent's state, and the one op the output mapping writes.

package results

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/honesty/ledger"
)

// Layer is everything the agent needs to mount the results layer:
//
//	l, err := results.New(results.Deps{ArgumentOf: argOf})
//	b.Mount(l.ID, l.Chart, l.Mount)
//
// The parent chart must declare findingsLedger with ledger.StateKey().
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
// toolResults (entries whose id or name is not text are skipped), the periods declared on this
// batch's coverageDeclared rows (only when there are some), the batch's iteration and the turn.
func Input(parent flow.Reader) (map[string]any, error) {
	stamp, ok := BatchToJudge(parent)
	if !ok {
		return map[string]any{keyCalls.KeyName(): []RanCall{}}, nil
	}
	tr, _ := parent.Get(KeyToolResults)
	calls, err := callsOf(tr)
	if err != nil {
		return nil, err
	}
	in := map[string]any{
		keyCalls.KeyName():          calls,
		keyBatchIteration.KeyName(): stamp,
	}
	if tv, has := parent.Get(KeyTurnNumber); has {
		if t, ok := intOf(tv); ok {
			in[keyTurnNumber.KeyName()] = t
		}
	}
	cd, _ := parent.Get(KeyCoverageDeclared)
	rows, err := declaredOf(cd)
	if err != nil {
		return nil, err
	}
	if ps := PeriodsOf(rows, calls, stamp); len(ps) > 0 {
		in[keyPeriods.KeyName()] = ps
	}
	return in, nil
}

// Output is the mount's output mapping: one append of the Record stage's rows to findingsLedger,
// or no op at all when it filed none.
func Output(res flow.SubflowResult, _ flow.Reader) ([]flow.Op, error) {
	v, _ := res.State.Get(keyPeriodRows.KeyName())
	rows, _ := v.([]coverage.PeriodRow)
	if len(rows) == 0 {
		return nil, nil
	}
	return []flow.Op{flow.AppendOp(ledger.StateKeyName, ledger.PeriodRowsOf(rows))}, nil
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
		out = append(out, CallPeriod{ToolCallID: r.ToolCallID, Period: coverage.CopyPeriod(*r.Period)})
	}
	return out
}

// callsOf reads the batch's identities from toolResults, whatever Go type the agent keeps it in:
// []RanCall, a list of maps, or any list of structs with toolCallId and toolName JSON fields.
func callsOf(v any) ([]RanCall, error) {
	switch t := v.(type) {
	case nil:
		return []RanCall{}, nil
	case []RanCall:
		return append([]RanCall{}, t...), nil
	case []map[string]any:
		out := make([]RanCall, 0, len(t))
		for _, m := range t {
			out = appendCall(out, m)
		}
		return out, nil
	case []any:
		if ms, ok := mapsOf(t); ok {
			out := make([]RanCall, 0, len(ms))
			for _, m := range ms {
				out = appendCall(out, m)
			}
			return out, nil
		}
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("results: reading %s: %w", KeyToolResults, err)
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(data, &elems); err != nil {
		return nil, fmt.Errorf("results: %s is not a list", KeyToolResults)
	}
	out := make([]RanCall, 0, len(elems))
	for _, el := range elems {
		var m map[string]any
		if json.Unmarshal(el, &m) == nil {
			out = appendCall(out, m)
		}
	}
	return out, nil
}

func mapsOf(list []any) ([]map[string]any, bool) {
	out := make([]map[string]any, len(list))
	for i, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, false
		}
		out[i] = m
	}
	return out, true
}

func appendCall(out []RanCall, m map[string]any) []RanCall {
	id, ok1 := m["toolCallId"].(string)
	name, ok2 := m["toolName"].(string)
	if !ok1 || !ok2 {
		return out
	}
	return append(out, RanCall{ToolCallID: id, ToolName: name})
}

// declaredOf reads coverageDeclared rows: typed, or decoded from JSON element by element (an
// element that does not decode is skipped).
func declaredOf(v any) ([]coverage.DeclaredCoverage, error) {
	switch t := v.(type) {
	case nil:
		return nil, nil
	case []coverage.DeclaredCoverage:
		return t, nil
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("results: reading %s: %w", KeyCoverageDeclared, err)
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(data, &elems); err != nil {
		return nil, fmt.Errorf("results: %s is not a list", KeyCoverageDeclared)
	}
	out := make([]coverage.DeclaredCoverage, 0, len(elems))
	for _, el := range elems {
		var r coverage.DeclaredCoverage
		if json.Unmarshal(el, &r) == nil {
			out = append(out, r)
		}
	}
	return out, nil
}

// intOf reads a whole number held as any Go integer, a float64 without fraction, or json.Number.
func intOf(v any) (int, bool) {
	switch t := v.(type) {
	case int:
		return t, true
	case int64:
		return int(t), true
	case int32:
		return int(t), true
	case float64:
		if t == math.Trunc(t) && math.Abs(t) < 1<<53 {
			return int(t), true
		}
	case json.Number:
		if n, err := strconv.Atoi(string(t)); err == nil {
			return n, true
		}
	}
	return 0, false
}
