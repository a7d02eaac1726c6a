// This file holds the checkpoint door's refusal: the error that names the first row of a ledger
// arriving from outside the run that its kind's check turned away.

package ledger

import "fmt"

// RowError is the door's refusal: the first row that failed, by its position in the ledger and
// its kind, and why. A caller tells a refused ledger from other failures with errors.As.
type RowError struct {
	// Index is the row's position in the ledger, from 0; -1 when the ledger itself is not a list.
	Index int
	// Kind is the kind the row declared ("" when it declared none).
	Kind string
	// Reason says what is wrong, in words a person can act on.
	Reason string
}

// Error names the row and the fault.
func (e *RowError) Error() string {
	if e.Index < 0 {
		return "ledger: checkpoint refused: " + e.Reason
	}
	return fmt.Sprintf("ledger: checkpoint refused at findingsLedger row %d (kind %q): %s", e.Index, e.Kind, e.Reason)
}
