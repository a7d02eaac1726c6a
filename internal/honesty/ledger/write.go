// This file holds the ledger's two halves, the pure merge and the emit.

package ledger

import (
	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/honesty/ledger"
)

// appendRows is the ledger's merge half: prev followed by rows, in a fresh slice. prev is never
// modified. With no rows it returns prev itself, so an empty write can be skipped.
func appendRows(prev, rows []ledger.Row) []ledger.Row {
	if len(rows) == 0 {
		return prev
	}
	out := make([]ledger.Row, 0, len(prev)+len(rows))
	out = append(out, prev...)
	return append(out, rows...)
}

// PeriodRowsOf wraps period rows as ledger rows, in order.
func PeriodRowsOf(rows []boundary.PeriodRow) []ledger.Row {
	out := make([]ledger.Row, len(rows))
	for i, r := range rows {
		out[i] = ledger.FromPeriod(r)
	}
	return out
}

// PeriodPayload returns the findings.period payload for a row: names, the verdict and numbers,
// never an instant or an argument name. A row carrying the time layer's checks lists their names
// under timeChecks.
func PeriodPayload(r boundary.PeriodRow) event.FindingsPeriodPayload {
	return event.FindingsPeriodPayload{
		ToolCallID: r.ToolCallID,
		ToolName:   r.ToolName,
		Iteration:  r.Iteration,
		Turn:       r.Turn,
		Verdict:    string(r.Verdict),
		TimeChecks: timeCheckNames(r),
	}
}

// timeCheckNames lists the time layer's checks a period row carries, in a fixed order:
// period-differs-from-asked, period-shifted, period-beyond-retention, partly-beyond-retention.
// A row without them gives nil.
func timeCheckNames(r boundary.PeriodRow) []string {
	var out []string
	if r.Differs != nil {
		out = append(out, "period-differs-from-asked")
	}
	if r.Shifted != nil {
		out = append(out, "period-shifted")
	}
	if r.BeyondRetention {
		out = append(out, "period-beyond-retention")
	}
	if r.PartlyBeyondRetention {
		out = append(out, "partly-beyond-retention")
	}
	return out
}

// EmitPeriodRows is the ledger's emit half for period rows: one agentfootprint.findings.period
// event per row, in order, through the stage's scope. The payload is built only when someone
// listens.
func EmitPeriodRows(s *flow.Scope, rows []boundary.PeriodRow) {
	for _, r := range rows {
		s.Emit(string(event.FindingsPeriod), func() any { return PeriodPayload(r) })
	}
}
