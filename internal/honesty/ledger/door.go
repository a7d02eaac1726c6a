// This file holds the checkpoint door: every row of a ledger arriving from outside the run is
// checked by its kind before any of it is restored.

package ledger

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/internal/honesty/rowkind"

	"github.com/agentfootprint/agentfootprint-go/honesty/ledger"
	"github.com/agentfootprint/agentfootprint-go/internal/coverread"
)

// Check tests one row decoded as JSON (numbers as float64) and returns why it is malformed, or ""
// when it is well formed.
type Check func(row map[string]any) string

// Door validates a ledger at the checkpoint by row kind, one check per kind. The zero Door knows
// no kind and refuses every row; use StandardDoor.
type Door struct {
	checks map[string]Check
}

// StandardDoor returns the door for the kinds this package models: period rows (the coverage
// package's test, plus whole-number turn and iteration so the row decodes) and argument rows.
func StandardDoor() Door {
	return Door{checks: map[string]Check{
		rowkind.Period:   periodProblem,
		rowkind.Argument: argumentProblem,
	}}
}

// With returns a copy of d that also admits kind, checked by c. It is how a later layer adds its
// row kinds without this package knowing them. A nil c or empty kind returns d unchanged.
func (d Door) With(kind string, c Check) Door {
	if kind == "" || c == nil {
		return d
	}
	m := make(map[string]Check, len(d.checks)+1)
	for k, v := range d.checks {
		m[k] = v
	}
	m[kind] = c
	return Door{checks: m}
}

// Kinds returns the kinds the door admits, sorted.
func (d Door) Kinds() []string {
	out := make([]string, 0, len(d.checks))
	for k := range d.checks {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Admit checks a ledger given as JSON (the conversation checkpoint's findingsLedger) and returns
// its rows. null or empty input gives no rows. The first row that is not an object, declares a
// kind the door has no check for, or fails its kind's check refuses the whole ledger with a
// *RowError naming it: a tampered checkpoint restores nothing.
func (d Door) Admit(data json.RawMessage) ([]ledger.Row, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || bytes.Equal(data, []byte("null")) {
		return nil, nil
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(data, &elems); err != nil {
		return nil, &ledger.RowError{Index: -1, Reason: "findingsLedger must be a JSON list of rows"}
	}
	rows := make([]ledger.Row, 0, len(elems))
	for i, el := range elems {
		var m map[string]any
		if err := json.Unmarshal(el, &m); err != nil || m == nil {
			return nil, &ledger.RowError{Index: i, Reason: "a row must be a JSON object"}
		}
		kind, _ := m["kind"].(string)
		check, ok := d.checks[kind]
		if !ok {
			return nil, &ledger.RowError{Index: i, Kind: kind, Reason: fmt.Sprintf(
				"this runtime files no rows of that kind (it admits %s), so it cannot restore them", strings.Join(d.Kinds(), ", "))}
		}
		if why := check(m); why != "" {
			return nil, &ledger.RowError{Index: i, Kind: kind, Reason: why}
		}
		var r ledger.Row
		if err := r.UnmarshalJSON(el); err != nil {
			return nil, &ledger.RowError{Index: i, Kind: kind, Reason: err.Error()}
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// periodProblem is the period row's check: the coverage package's rule, and whole numbers for
// turn and iteration.
func periodProblem(row map[string]any) string {
	const need = "a period row needs kind \"period\", whole-number turn and iteration, text " +
		"toolCallId and toolName, a verdict of covered, partly-held, not-held, unknown or " +
		"undeclared, and an argument that is absent or non-empty text"
	if !coverread.PeriodRowIsWellFormed(row) {
		return need
	}
	if !isWhole(row["turn"]) || !isWhole(row["iteration"]) {
		return need + "; turn or iteration has a fraction"
	}
	return ""
}
