// This file holds the plain data the results layer's stages pass along.

package results

import (
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
)

// RanCall is one call of the batch the loop just dispatched: its identity only, never its result.
type RanCall struct {
	ToolCallID string `json:"toolCallId"`
	ToolName   string `json:"toolName"`
}

// CallPeriod is one period a call's result declared, read off its committed coverageDeclared row.
type CallPeriod struct {
	ToolCallID string          `json:"toolCallId"`
	Period     coverage.Period `json:"period"`
}

// PlannedPeriod is a call the layer will judge: every period its result declared (empty when it
// declared none) and the argument its tool's period declaration names ("" when there is none).
type PlannedPeriod struct {
	ToolCallID string            `json:"toolCallId"`
	ToolName   string            `json:"toolName"`
	Declared   []coverage.Period `json:"declared"`
	Argument   string            `json:"argument,omitempty"`
}

// CheckedPeriod is a judged call: its verdict and the argument that passes through to the row.
type CheckedPeriod struct {
	ToolCallID string              `json:"toolCallId"`
	ToolName   string              `json:"toolName"`
	Verdict    boundary.RowVerdict `json:"verdict"`
	Argument   string              `json:"argument,omitempty"`
	// Time holds the time layer's checks, under that layer only.
	Time *TimeFields `json:"time,omitempty"`
}

// HeldSpan sets the span a call asked about beside the span its source held, for a call the
// source held none or only part of.
type HeldSpan struct {
	Queried coverage.Span `json:"queried"`
	Held    coverage.Span `json:"held"`
}

// Stamp is what every row of one batch is stamped with: the conversation turn and the iteration
// that dispatched the batch.
type Stamp struct {
	Turn      int
	Iteration int
}

// ArgumentOf returns the argument a tool's period declaration names, and false when the tool
// declares none. The agent answers it from the implementation that served the name in the batch
// being judged.
type ArgumentOf func(toolName string) (string, bool)
