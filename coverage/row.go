// This file holds the record row a declaration becomes. It lives here, not in coverage/boundary
// beside the reading that builds it, because the run's record names its Go type
// ("[]coverage.DeclaredCoverage") and the record's bytes do not change.

package coverage

import "github.com/agentfootprint/agentfootprint-go/internal/coverage/engine"

// DeclaredCoverage is one declaration as the run records it (the coverageDeclared row): the door
// it came through (Kind: "absence" or "ledger"), the call, and what it declared. The framework
// builds it (coverage/boundary reads it off a tool result); a tool author never needs to. It
// encodes with the key order kind, toolName, toolCallId?, iteration, lookedFor?, checked,
// notChecked, cannotCover, period?, inProgress?; the three lists are always present.
type DeclaredCoverage struct {
	Kind        string           `json:"kind"`
	ToolName    string           `json:"toolName"`
	ToolCallID  string           `json:"toolCallId,omitempty"`
	Iteration   int              `json:"iteration"`
	LookedFor   string           `json:"lookedFor,omitempty"`
	Checked     []Item           `json:"checked"`
	NotChecked  []Item           `json:"notChecked"`
	CannotCover []Item           `json:"cannotCover"`
	Period      *Period          `json:"period,omitempty"`
	InProgress  []InProgressItem `json:"inProgress,omitempty"`
}

// MarshalJSON encodes the row, writing empty lists as [].
func (d DeclaredCoverage) MarshalJSON() ([]byte, error) {
	type plain DeclaredCoverage
	p := plain(d)
	for _, l := range []*[]Item{&p.Checked, &p.NotChecked, &p.CannotCover} {
		if *l == nil {
			*l = []Item{}
		}
	}
	return engine.Marshal(p)
}
