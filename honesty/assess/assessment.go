// This file holds the Assessment's shape, its closed vocabularies and the precedence rules.

package assess

// Assessment values.
const (
	ValueKnown         = "known"
	ValueUnrefuted     = "unrefuted"
	ValueUnknown       = "unknown"
	ValueNotApplicable = "not-applicable"
)

// Standings, from strongest claim on the reader's attention to weakest.
const (
	StandingAsk         = "ask"
	StandingNotSure     = "not-sure"
	StandingKnown       = "known"
	StandingConsistent  = "consistent"
	StandingNotAssessed = "not-assessed"
)

// Reason names.
const (
	ReasonArgumentAsked      = "argument-asked"
	ReasonArgumentAssumed    = "argument-assumed"
	ReasonArgumentUnverified = "argument-unverified"
	ReasonCoverageGap        = "coverage-gap"
	ReasonDeclaredAbsent     = "declared-absent"
	ReasonEmptyUndeclared    = "empty-undeclared"
	// ReasonCallFailed: a call of the turn returned no data (the tool
	// failed or panicked, its arguments were refused, its own declaration
	// was refused, or it was not run), so whatever the answer says about
	// what it would have read rests on nothing.
	ReasonCallFailed       = "call-failed"
	ReasonPeriodNotHeld    = "period-not-held"
	ReasonPeriodPartlyHeld = "period-partly-held"
	ReasonPeriodUnknown    = "period-unknown"
	ReasonPeriodUndeclared = "period-undeclared"
	// The time layer's reasons, from the checks it files on period rows.
	ReasonPeriodDiffersFromAsked = "period-differs-from-asked"
	ReasonPeriodBeyondRetention  = "period-beyond-retention"
)

// reasonOrder is the closed list reasons are reported in, across every layer. A reason not on it
// sorts last.
var reasonOrder = []string{
	"asked", ReasonArgumentAsked, ReasonArgumentAssumed, ReasonArgumentUnverified, "argument-read", "value-contingent",
	ReasonCoverageGap, ReasonDeclaredAbsent, ReasonEmptyUndeclared, ReasonCallFailed,
	ReasonPeriodNotHeld, ReasonPeriodPartlyHeld, ReasonPeriodUnknown, ReasonPeriodUndeclared,
	ReasonPeriodDiffersFromAsked, ReasonPeriodBeyondRetention,
	"sources-conflict", "value-unsupported", "value-survived-revision", "derived-from-reading", "stopped-early",
	"steps-unfinished", "answer-check-failed", "check-unreachable",
}

// ReasonOrder returns the closed reason list in report order.
func ReasonOrder() []string { return append([]string{}, reasonOrder...) }

// Assessment is the fold's result.
type Assessment struct {
	// Assessment is known, unrefuted, unknown or not-applicable.
	Assessment string `json:"assessment"`
	// Standing is known, consistent, not-sure, ask or not-assessed.
	Standing string `json:"standing"`
	// Reasons lists what fired, in the fixed order, each with its witnesses.
	Reasons []Reason `json:"reasons"`
	// Checked lists the checks that actually ran, never a fixed list.
	Checked []Check `json:"checked"`
	// TurnFrom says where the turn was taken to start: "person" (after the person's message), or
	// "whole-history" (when the record holds none).
	TurnFrom string `json:"turnFrom"`
}

// Reason is one reason the answer is not taken as it stands.
type Reason struct {
	Reason  string    `json:"reason"`
	Layer   int       `json:"layer,omitempty"`
	Witness []Pointer `json:"witness"`
}

// Check is one check that ran: how many of the things it covers it could read.
type Check struct {
	Layer int `json:"layer"`
	// Check names the check: argument-rules (the inputs layer's), tool-coverage, result-shape or
	// result-period (the results layer's).
	Check   string    `json:"check"`
	Ran     int       `json:"ran"`
	Of      int       `json:"of"`
	Witness []Pointer `json:"witness"`
}
