// This file holds the findings.argument payload: names, enums and counts of a
// row, never its value.

package inputs

import (
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/honesty/ledger"
	"github.com/agentfootprint/agentfootprint-go/internal/textlen"
)

// Payload is the findings.argument payload for row. valueChars is set only
// when the row shows a value that is not hidden.
func Payload(row ledger.ArgumentRow, hidden bool) event.FindingsArgumentPayload {
	p := event.FindingsArgumentPayload{ToolCallID: row.ToolCallID, ToolName: row.ToolName, Iteration: row.Iteration,
		Turn: row.Turn, Argument: row.Argument, Rule: row.Rule, Period: row.Period, Source: row.Source,
		Asked: row.Asked, Proposed: row.Proposed != "", Free: row.Free, Hidden: hidden}
	if row.Value != "" && !hidden {
		n := textlen.UTF16(row.Value)
		p.ValueChars = &n
	}
	return p
}
