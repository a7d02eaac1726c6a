// This file holds Row, the kind-tagged value every findings-ledger element is, and its JSON form.

package ledger

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/internal/honesty/rowkind"

	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
)

// Row is one element of the findings ledger. It holds exactly one kind: a period row, an argument
// row, or a row of another kind kept verbatim as JSON. Rows are values; once filed they are never
// changed. The zero Row has no kind and encodes as null.
type Row struct {
	kind     string
	period   *boundary.PeriodRow
	argument *ArgumentRow
	raw      json.RawMessage
}

// FromPeriod wraps a period row. Its Kind field is set to "period" whatever it held.
func FromPeriod(p boundary.PeriodRow) Row {
	p.Kind = rowkind.Period
	return Row{kind: rowkind.Period, period: &p}
}

// FromArgument wraps an argument row. Its Kind field is set to "argument" whatever it held.
func FromArgument(a ArgumentRow) Row {
	a.Kind = rowkind.Argument
	return Row{kind: rowkind.Argument, argument: &a}
}

// Kind returns the row's kind ("period", "argument", or whatever a foreign row declared).
func (r Row) Kind() string { return r.kind }

// Period returns a copy of the period row, and false for a row of another kind.
func (r Row) Period() (boundary.PeriodRow, bool) {
	if r.period == nil {
		return boundary.PeriodRow{}, false
	}
	return *r.period, true
}

// Argument returns a copy of the argument row, and false for a row of another kind.
func (r Row) Argument() (ArgumentRow, bool) {
	if r.argument == nil {
		return ArgumentRow{}, false
	}
	a := *r.argument
	return a, true
}

// MarshalJSON encodes the row in its kind's key order; a row of a kind this package does not model
// is written back byte for byte.
func (r Row) MarshalJSON() ([]byte, error) {
	switch {
	case r.period != nil:
		return json.Marshal(r.period)
	case r.argument != nil:
		return json.Marshal(r.argument)
	case r.raw != nil:
		return bytes.Clone(r.raw), nil
	}
	return []byte("null"), nil
}

// UnmarshalJSON decodes a row by its kind. It refuses a value that is not an object and a known
// kind whose fields have the wrong JSON types; a kind it does not model is kept verbatim. It does
// not apply the checkpoint door's rules: Door.Admit does.
func (r *Row) UnmarshalJSON(data []byte) error {
	var head struct {
		Kind any `json:"kind"`
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return fmt.Errorf("ledger: a row must be a JSON object, got %.40s", trimmed)
	}
	if err := json.Unmarshal(trimmed, &head); err != nil {
		return fmt.Errorf("ledger: row: %w", err)
	}
	kind, _ := head.Kind.(string)
	switch kind {
	case rowkind.Period:
		var p boundary.PeriodRow
		if err := json.Unmarshal(trimmed, &p); err != nil {
			return fmt.Errorf("ledger: period row: %w", err)
		}
		*r = Row{kind: kind, period: &p}
	case rowkind.Argument:
		var a ArgumentRow
		if err := json.Unmarshal(trimmed, &a); err != nil {
			return fmt.Errorf("ledger: argument row: %w", err)
		}
		*r = Row{kind: kind, argument: &a}
	default:
		*r = Row{kind: kind, raw: bytes.Clone(trimmed)}
	}
	return nil
}
