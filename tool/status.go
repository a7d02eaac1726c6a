// This file holds the closed set of tool result statuses.

package tool

// Status says how a tool call went, in the words the record, the
// tools.result event and the model share. The set is closed: the seven
// constants below are the only legal values, and the empty Status means
// "not stated" (which is legal too).
type Status string

// The seven statuses. Their strings are wire facts.
const (
	// StatusSuccess: the call did what was asked.
	StatusSuccess Status = "success"
	// StatusFailure: the call ran and did not achieve what was asked.
	StatusFailure Status = "failure"
	// StatusDenied: the tool itself declined the call (a policy, a
	// permission). The framework never sets it.
	StatusDenied Status = "denied"
	// StatusInvalid: the call was not acceptable as made. The framework
	// sets it on an argument rejection, a result-ceiling refusal or a
	// declaration refusal.
	StatusInvalid Status = "invalid"
	// StatusPartial: some of what was asked was done or read.
	StatusPartial Status = "partial"
	// StatusPending: the work was accepted and is not finished.
	StatusPending Status = "pending"
	// StatusAbsent: the thing looked for was not there (see the
	// coverage envelopes for how absence is declared).
	StatusAbsent Status = "absent"
)
