// This file holds the ledger's readers. Each switches over kinds and skips the ones it does not
// read, and none collapses period rows.

package ledger

import (
	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	"github.com/agentfootprint/agentfootprint-go/internal/honesty/rowkind"
)

// PeriodRows returns every period row, in ledger order. Rows under a repeated call id are all
// kept: each is its own call.
func PeriodRows(rows []Row) []boundary.PeriodRow {
	var out []boundary.PeriodRow
	for _, r := range rows {
		switch r.kind {
		case rowkind.Period:
			if r.period != nil {
				out = append(out, *r.period)
			}
		default:
			// Another layer's row: not ours to read.
		}
	}
	return out
}

// OfTurn returns the rows filed in the given turn, in order. Rows of a kind this package does not
// model are kept only when their JSON carries the same turn.
func OfTurn(rows []Row, turn int) []Row {
	var out []Row
	for _, r := range rows {
		switch {
		case r.period != nil:
			if r.period.Turn == turn {
				out = append(out, r)
			}
		case r.argument != nil:
			if r.argument.Turn == turn {
				out = append(out, r)
			}
		default:
			if t, ok := rawTurn(r.raw); ok && t == turn {
				out = append(out, r)
			}
		}
	}
	return out
}

// CurrentArguments returns the current argument rows: the last one per (turn, toolCallId,
// argument), at the position of that last row.
func CurrentArguments(rows []Row) []ArgumentRow {
	type key struct {
		turn      int
		call, arg string
	}
	last := map[key]int{}
	for i, r := range rows {
		if a := r.argument; a != nil {
			last[key{a.Turn, a.ToolCallID, a.Argument}] = i
		}
	}
	var out []ArgumentRow
	for i, r := range rows {
		if a := r.argument; a != nil && last[key{a.Turn, a.ToolCallID, a.Argument}] == i {
			out = append(out, *a)
		}
	}
	return out
}
