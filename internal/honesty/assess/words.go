// This file holds the words only the fold writes into an Assessment: the names of the checks it
// runs and where it takes the turn to start.

package assess

// The checks the fold runs, by the name an assess.Check carries.
const (
	CheckArgumentRules = "argument-rules"
	CheckToolCoverage  = "tool-coverage"
	CheckResultShape   = "result-shape"
	CheckResultPeriod  = "result-period"
)

// Where the fold takes the turn to start (assess.Assessment.TurnFrom): after the person's last
// message, or, when the record holds none, the whole history.
const (
	TurnFromPerson       = "person"
	TurnFromWholeHistory = "whole-history"
)
