// This file holds the event envelope and its meta.

package event

// Event is one event as listeners receive it and as it is written out:
// {"type": …, "payload": …, "meta": …}. Payloads are immutable once
// emitted: listeners must not modify them.
type Event struct {
	Type    Name `json:"type"`    // the event's name
	Payload any  `json:"payload"` // one of this package's payload types, or another JSON value
	Meta    Meta `json:"meta"`    // where and when it happened
}

// Meta joins an event to the run record and to its caller. RunID,
// RuntimeStageID and SubflowPath are the join keys to the commit log.
// Identity fields carry only what the caller set explicitly.
type Meta struct {
	// RunID names the run.
	RunID string `json:"runId"`
	// RuntimeStageID is the execution that emitted the event, such as
	// "call-llm#3" or "sf-results/verify#12".
	RuntimeStageID string `json:"runtimeStageId"`
	// SubflowPath is the subflow the emitting stage ran in ("" at the
	// top level).
	SubflowPath string `json:"subflowPath"`
	// WallClockMs is the Unix time of the emit, in milliseconds.
	WallClockMs int64 `json:"wallClockMs"`
	// RunOffsetMs is the time since the run started, in milliseconds.
	RunOffsetMs int64 `json:"runOffsetMs"`
	// TurnIndex is reserved; when set it is 0.
	TurnIndex *int `json:"turnIndex,omitempty"`
	// IterIndex is the agent iteration, when the event belongs to one.
	IterIndex *int `json:"iterIndex,omitempty"`
	// CompositionPath names the runners from the outermost agent down to
	// the one that emitted; nested runners' events are told apart by it.
	CompositionPath []string `json:"compositionPath"`
	// TraceID and SpanID link to a tracing backend, when one is in use.
	TraceID string `json:"traceId,omitempty"`
	SpanID  string `json:"spanId,omitempty"` // see TraceID
	// SessionID, Principal and Tenant are caller identity, only as the
	// caller stated it.
	SessionID string `json:"sessionId,omitempty"`
	Principal string `json:"principal,omitempty"` // see SessionID
	Tenant    string `json:"tenant,omitempty"`    // see SessionID
}
