// This file holds the Assumed block: the values a tool's rule chose this
// turn, printed under the answer's limits.

package inputs

import (
	"strconv"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/honesty/ledger"
)

// AssumedHeading is the Assumed block's first line.
const AssumedHeading = "Assumed (a tool's rule chose these values, not the person):"

// MaxAssumedLines is the most lines the block prints before its overflow line.
const MaxAssumedLines = 12

// AssumedValue is one value a tool's rule chose: Shown is how the block
// prints it (Quoted), ignored when Hidden.
type AssumedValue struct {
	ToolName string
	Argument string
	Shown    string
	Hidden   bool
}

// AssumedRows picks this turn's current rows filed with source "default", in
// ledger order, one per (toolName, argument, value).
func AssumedRows(rows []ledger.Row, turn int) []ledger.ArgumentRow {
	var out []ledger.ArgumentRow
	seen := map[[3]string]bool{}
	for _, a := range ledger.CurrentArguments(ledger.OfTurn(rows, turn)) {
		if a.Source != SourceDefault {
			continue
		}
		k := [3]string{a.ToolName, a.Argument, a.Value}
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, a)
	}
	return out
}

// AssumedBlock renders the block, or "" when nothing was assumed.
func AssumedBlock(values []AssumedValue) string {
	if len(values) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(AssumedHeading)
	for i, v := range values {
		if i == MaxAssumedLines {
			b.WriteString("\n- … ")
			b.WriteString(strconv.Itoa(len(values) - MaxAssumedLines))
			b.WriteString(" more not shown here; the run record lists them all")
			break
		}
		b.WriteString("\n- ")
		b.WriteString(v.Argument)
		if v.Hidden {
			b.WriteString(" is set to ")
			b.WriteString(hiddenPhrase)
		} else {
			b.WriteString(" = ")
			b.WriteString(v.Shown)
		}
		b.WriteString(" (")
		b.WriteString(v.ToolName)
		b.WriteString(")")
	}
	return b.String()
}
