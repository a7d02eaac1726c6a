// This file holds answerCoverage: the limits as data, for an answer that must stay the model's
// JSON.

package limits

import "github.com/agentfootprint/agentfootprint-go/coverage"

// AnswerCoverage travels beside a typed answer instead of the block: the merged lists uncapped
// and in record form, every declaring call's distinct period as declared, the in-progress work
// per call, and the inputs layer's assumed values.
type AnswerCoverage struct {
	Checked     []coverage.Item   `json:"checked"`
	NotChecked  []coverage.Item   `json:"notChecked"`
	CannotCover []coverage.Item   `json:"cannotCover"`
	Periods     []PeriodEntry     `json:"periods,omitempty"`
	InProgress  []InProgressEntry `json:"inProgress,omitempty"`
	Assumed     []Assumed         `json:"assumed,omitempty"`
}

// PeriodEntry is one declaring call's period, with its instants as the tool wrote them and held
// either a span or "unknown".
type PeriodEntry struct {
	ToolName   string        `json:"toolName"`
	ToolCallID string        `json:"toolCallId,omitempty"`
	Queried    coverage.Span `json:"queried"`
	Held       coverage.Held `json:"held"`
	ReadAt     string        `json:"readAt,omitempty"`
}

func (p PeriodEntry) period() coverage.Period {
	return coverage.Period{Queried: p.Queried, Held: p.Held, ReadAt: p.ReadAt}
}

// InProgressEntry is one call's list of work still running when it read.
type InProgressEntry struct {
	ToolName   string                    `json:"toolName"`
	ToolCallID string                    `json:"toolCallId,omitempty"`
	Items      []coverage.InProgressItem `json:"items"`
}

// Assumed is one value a tool's rule chose for the person (the inputs layer's rows). Value is
// "REDACTED" when Hidden.
type Assumed struct {
	ToolName string `json:"toolName"`
	Argument string `json:"argument"`
	Value    string `json:"value"`
	Hidden   bool   `json:"hidden"`
}

// AnswerCoverageOf folds the run's coverageDeclared rows, and the assumed values the inputs layer
// hands over, into answerCoverage. It returns nil when nothing was declared and nothing assumed:
// the key is then left out.
func AnswerCoverageOf(rows []coverage.DeclaredCoverage, assumed []Assumed) *AnswerCoverage {
	if len(rows) == 0 && len(assumed) == 0 {
		return nil
	}
	m := merge(rows)
	ac := &AnswerCoverage{Checked: m.checked, NotChecked: m.notChecked, CannotCover: m.cannotCover,
		Periods: m.periods, InProgress: m.inProgress}
	if len(assumed) > 0 {
		ac.Assumed = append([]Assumed{}, assumed...)
		for i := range ac.Assumed {
			if ac.Assumed[i].Hidden {
				ac.Assumed[i].Value = "REDACTED"
			}
		}
	}
	return ac
}
