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
