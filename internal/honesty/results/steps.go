// This file holds the layer's pure steps: which visit has a batch, which calls to judge, the
// verdicts, the rows and the held span.

package results

import (
	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/internal/coverread"
	"github.com/agentfootprint/agentfootprint-go/internal/honesty/rowkind"
)

// KeyToolResultsIteration is the layer's stamp: the iteration whose tool calls were dispatched
// last. The agent sets it only when a results layer judges batches; the visit straight after a
// batch is the one where iteration is this stamp plus one.
var KeyToolResultsIteration = flow.Key[int]("toolResultsIteration")

// BatchToJudge reports whether this loop-head visit has a batch to judge, and the iteration that
// dispatched it. That is so exactly when toolResultsIteration is present and iteration is that
// stamp plus one: the visit straight after the tool calls. The first iteration has no stamp, and
// every tool-less way back to the loop head (wrap-up, a retry, a nudge) has advanced the iteration
// again, so none of them judges the batch a second time. A call id never decides it.
func BatchToJudge(r flow.Reader) (stamp int, ok bool) {
	s, has := KeyToolResultsIteration.Get(r)
	if !has {
		return 0, false
	}
	it, has := state.KeyIteration.Get(r)
	if !has || it != s+1 {
		return 0, false
	}
	return s, true
}

// PlanPeriods is the Declare step: the calls to judge, in batch order. A call is planned when its
// result declared at least one period or argOf names a period argument for its tool. A call id met
// twice in one batch is planned once, over every period declared under it, so its weakest period
// decides. argOf may be nil when no tool declares a period argument.
func PlanPeriods(calls []RanCall, periods []CallPeriod, argOf ArgumentOf) []PlannedPeriod {
	plan := []PlannedPeriod{}
	seen := make(map[string]bool, len(calls))
	for _, c := range calls {
		if seen[c.ToolCallID] {
			continue
		}
		seen[c.ToolCallID] = true
		declared := []coverage.Period{}
		for _, p := range periods {
			if p.ToolCallID == c.ToolCallID {
				declared = append(declared, p.Period)
			}
		}
		var arg string
		if argOf != nil {
			if a, ok := argOf(c.ToolName); ok {
				arg = a
			}
		}
		if len(declared) == 0 && arg == "" {
			continue
		}
		plan = append(plan, PlannedPeriod{ToolCallID: c.ToolCallID, ToolName: c.ToolName, Declared: declared, Argument: arg})
	}
	return plan
}

// CheckPeriods is the Verify step: one verdict per planned call. A call that declared no period is
// undeclared; otherwise its verdict is the least held of its periods. A period whose instants
// cannot be compared (it never should reach here) counts as unknown, so a fault can only make the
// verdict weaker, never stronger.
func CheckPeriods(plan []PlannedPeriod) []CheckedPeriod {
	out := make([]CheckedPeriod, 0, len(plan))
	for _, p := range plan {
		out = append(out, CheckedPeriod{ToolCallID: p.ToolCallID, ToolName: p.ToolName,
			Verdict: verdictOver(p.Declared), Argument: p.Argument})
	}
	return out
}

// verdictOver returns the least held verdict of declared, or undeclared for none.
func verdictOver(declared []coverage.Period) boundary.RowVerdict {
	if len(declared) == 0 {
		return boundary.VerdictUndeclared
	}
	vs := make([]coverage.Verdict, 0, len(declared))
	for _, d := range declared {
		v, err := coverage.VerdictOf(d)
		if err != nil {
			v = coverage.VerdictUnknown
		}
		vs = append(vs, v)
	}
	least, ok := coverread.LeastHeld(vs)
	if !ok {
		return boundary.RowVerdict(coverage.VerdictUnknown)
	}
	return boundary.RowVerdict(least)
}

// PeriodRowsOf is the Record step: one period row per judged call, in order, stamped with the turn
// and the batch's iteration.
func PeriodRowsOf(checks []CheckedPeriod, st Stamp) []boundary.PeriodRow {
	out := make([]boundary.PeriodRow, 0, len(checks))
	for _, c := range checks {
		out = append(out, boundary.PeriodRow{
			Kind:       rowkind.Period,
			Turn:       st.Turn,
			ToolCallID: c.ToolCallID,
			ToolName:   c.ToolName,
			Iteration:  st.Iteration,
			Verdict:    c.Verdict,
			Argument:   c.Argument,
		})
		if c.Time != nil {
			c.Time.Apply(&out[len(out)-1])
		}
	}
	return out
}

// HeldSpanOf returns, for a not-held or partly-held verdict, the asked span and the held span of
// the first declared period whose own verdict is that one. For any other verdict, or when no
// declared period has it, it returns false.
func HeldSpanOf(declared []coverage.Period, verdict boundary.RowVerdict) (HeldSpan, bool) {
	if verdict != boundary.RowVerdict(coverage.VerdictNotHeld) && verdict != boundary.RowVerdict(coverage.VerdictPartlyHeld) {
		return HeldSpan{}, false
	}
	for _, d := range declared {
		v, err := coverage.VerdictOf(d)
		if err != nil || boundary.RowVerdict(v) != verdict || d.Held.Unknown {
			continue
		}
		return HeldSpan{Queried: d.Queried, Held: d.Held.Span}, true
	}
	return HeldSpan{}, false
}
