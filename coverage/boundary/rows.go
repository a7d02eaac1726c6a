// This file holds the record rows of the framework side: the coverageDeclared row each declaration
// becomes (its type lives in package coverage, see [coverage.DeclaredCoverage]) and the period row
// the results layer files on the findings ledger.

package boundary

import (
	"github.com/agentfootprint/agentfootprint-go/coverage"
)

// Row returns the coverageDeclared row for these facts, with fresh lists.
func (f Facts) Row(toolName, toolCallID string, iteration int) coverage.DeclaredCoverage {
	row := coverage.DeclaredCoverage{
		Kind:        string(f.Kind),
		ToolName:    toolName,
		ToolCallID:  toolCallID,
		Iteration:   iteration,
		Checked:     append([]coverage.Item{}, f.Checked...),
		NotChecked:  append([]coverage.Item{}, f.NotChecked...),
		CannotCover: append([]coverage.Item{}, f.CannotCover...),
	}
	if f.Kind == KindAbsence {
		row.LookedFor = f.LookedFor
	}
	if f.Period != nil {
		p := *f.Period
		row.Period = &p
	}
	if f.Kind == KindLedger && len(f.InProgress) > 0 {
		row.InProgress = append([]coverage.InProgressItem{}, f.InProgress...)
	}
	return row
}

// RowVerdict is the verdict a period row carries: a [coverage.Verdict], or undeclared when the tool declares
// a period argument and its result said nothing about what its read covered.
type RowVerdict string

// VerdictUndeclared marks declared silence on a period row.
const VerdictUndeclared RowVerdict = "undeclared"

// PeriodRow is the results layer's verdict on one call's period, filed on the findings ledger. It
// names the call; only the time layer's fields (all optional) carry instants.
type PeriodRow struct {
	// Kind is "period" on every period row (ledger.FromPeriod sets it).
	Kind       string     `json:"kind"`
	Turn       int        `json:"turn"`
	ToolCallID string     `json:"toolCallId"`
	ToolName   string     `json:"toolName"`
	Iteration  int        `json:"iteration"`
	Verdict    RowVerdict `json:"verdict"`
	// Argument is the argument the tool's period declaration names: the join key to the inputs
	// layer's argument row for the same call.
	Argument string `json:"argument,omitempty"`
	// The time layer's checks (present only under the agent's time layer).
	// Differs: what the call read is not the window asked.
	Differs *PeriodDiffers `json:"differs,omitempty"`
	// Shifted: the call's look-back ran later than the turn's now.
	Shifted *PeriodShift `json:"shifted,omitempty"`
	// BeyondRetention: the source keeps no data as old as the asked window.
	BeyondRetention bool `json:"beyondRetention,omitempty"`
	// PartlyBeyondRetention: the asked window crosses the retention edge.
	PartlyBeyondRetention bool `json:"partlyBeyondRetention,omitempty"`
	// Held: on a not-held or partly-held row, what was asked beside what
	// the source holds (the first declared period with the row's verdict).
	Held *PeriodHeld `json:"held,omitempty"`
}

// PeriodDiffers is a read that differs from the window it is compared with. Every range is
// half-open and spelled in UTC; Missing and Extra are always present, [] when empty.
type PeriodDiffers struct {
	// Against is "asked" (the call's own window) or "person" (the window the person set).
	Against string          `json:"against"`
	Asked   coverage.Span   `json:"asked"`
	Read    []coverage.Span `json:"read"`
	// Source says where the read came from: declared, sent, shifted or asked.
	Source  string          `json:"source"`
	StepMs  int64           `json:"stepMs,omitempty"`
	Missing []coverage.Span `json:"missing"`
	Extra   []coverage.Span `json:"extra"`
}

// PeriodShift is how late a shifted look-back ran, in whole milliseconds.
type PeriodShift struct {
	ByMs int64 `json:"byMs"`
}

// PeriodHeld sets the span a call asked about beside the span its source held.
type PeriodHeld struct {
	Queried coverage.Span `json:"queried"`
	Held    coverage.Span `json:"held"`
}
