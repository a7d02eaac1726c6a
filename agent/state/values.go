// The value types of the shared keys that no lower package owns. They are
// reached through this package only; package agent does not name them again.

package state

import (
	"github.com/agentfootprint/agentfootprint-go/honesty/inputs"
	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// ToolResult is one call of a batch as the record keeps it (an element of toolResults). The raw
// output is a blob, named by OutputRef ("sha256:<hex>"); ServedChars is the length in UTF-16
// units of what the model read.
type ToolResult struct {
	ToolCallID  string      `json:"toolCallId"`
	ToolName    string      `json:"toolName"`
	Iteration   int         `json:"iteration"`
	Status      tool.Status `json:"status,omitempty"`
	Error       bool        `json:"error,omitempty"`
	OutputRef   string      `json:"outputRef,omitempty"`
	ServedChars int         `json:"servedChars"`
}

// ContextUnits is the value of contextUnits: every unit's outcome in one iteration and the
// history messages sent.
type ContextUnits struct {
	Iteration int            `json:"iteration"`
	Units     []inject.Entry `json:"units"`
	History   HistoryWindow  `json:"history"`
}

// HistoryWindow lists the history messages sent (by index) and those a window strategy evicted.
type HistoryWindow struct {
	Sent    []int     `json:"sent"`
	Evicted []Evicted `json:"evicted"`
}

// Evicted is one history message left out of a request, and why.
type Evicted struct {
	Index  int    `json:"index"`
	Reason string `json:"reason"`
}

// LLMRequest is the value of llmRequest for one model call.
type LLMRequest struct {
	Iteration int          `json:"iteration"`
	Provider  string       `json:"provider"`
	Model     string       `json:"model"`
	Endpoint  string       `json:"endpoint"`
	Request   CapturedBody `json:"request"`
	Response  CapturedBody `json:"response"`
	// Spans are the byte spans of the units in the request, after the
	// first SpansKept, which are the previous model call's first SpansKept
	// spans (the same units at the same offsets, in the bytes the two
	// requests share): each span is stored once, not once per call.
	// record.Record.RequestSpans returns the whole list.
	Spans     []llm.Span `json:"spans"`
	SpansKept int        `json:"spansKept,omitempty"`
}

// CapturedBody is one side of an exchange: the SHA-256 (hex) and length of the exact bytes, how
// they were kept (Stored, request side only) and the blob that holds them ("sha256:<hex>") when
// kept. A provider that reported no bytes leaves Sha256 empty: nothing is guessed.
type CapturedBody struct {
	Sha256 string `json:"sha256"`
	Bytes  int    `json:"bytes"`
	Stored string `json:"stored,omitempty"`
	Blob   string `json:"blob,omitempty"`
}

// ArgumentAsk is the value of argumentAsk: the batch's iteration and, while a question about its
// arguments is out to the person, the question (Waiting).
type ArgumentAsk struct {
	Iteration int            `json:"iteration"`
	Waiting   *inputs.Ask    `json:"waiting,omitempty"`
	Fields    []inputs.Field `json:"fields,omitempty"`
}
