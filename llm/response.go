// This file holds what a model call returns: the response, its usage and
// stop reason, the stream events, and the exchange kept for the record.

package llm

import "net/http"

// StopReason says why the model stopped, in the project's words.
type StopReason string

// The five stop reasons. Response.RawStopReason keeps the provider's own word.
const (
	StopEnd           StopReason = "stop"
	StopToolUse       StopReason = "tool_use"
	StopMaxTokens     StopReason = "max_tokens"
	StopContentFilter StopReason = "content_filter"
	StopOther         StopReason = "other"
)

// Usage counts tokens for one call. Reported is false when the provider
// sent no counts: then the numbers are zero and must not be shown as
// measured.
type Usage struct {
	Input      int  `json:"input"`
	Output     int  `json:"output"`
	CacheRead  int  `json:"cacheRead,omitempty"`
	CacheWrite int  `json:"cacheWrite,omitempty"`
	Reasoning  int  `json:"reasoning,omitempty"` // of Output, the tokens the model spent reasoning (0 when not reported)
	Reported   bool `json:"reported"`
}

// Response is one finished model call. ToolCalls are whole calls in the
// model's order. ProviderRef is the provider's id for the reply (empty
// when it gave none).
type Response struct {
	Content       string
	ToolCalls     []ToolCall
	Usage         Usage
	StopReason    StopReason
	RawStopReason string
	Model         string
	ProviderRef   string
	Exchange      Exchange
}

// SpanKind names what a byte span in a request body covers.
type SpanKind string

// The span kinds: what a byte span of a request covers.
const (
	SpanSystemUnit SpanKind = "system-unit"
	SpanMessage    SpanKind = "message"
	SpanToolSchema SpanKind = "tool-schema"
	// SpanTimeLine is for a time line sent as a system segment. The agent
	// sends its time line as a message (unit id "time-line"), which is
	// recorded as SpanMessage.
	SpanTimeLine SpanKind = "time-line"
)

// Span is the byte range [Start, End) of one unit in Exchange.RequestBody.
// For text units it covers the escaped characters inside the JSON string,
// without the quotes; for a tool it covers the whole tool object.
type Span struct {
	Unit  string   `json:"unit"`
	Kind  SpanKind `json:"kind"`
	Start int      `json:"start"`
	End   int      `json:"end"`
}

// Exchange is the record of one call on the wire: the endpoint, the exact
// request body, where each unit landed in it, and what came back —
// ResponseBody for a plain reply, Frames (each SSE event or NDJSON line as
// received) for a stream. Header copies have Authorization and x-api-key
// redacted; no secret is ever kept. Attempts counts the HTTP attempts the
// call took (retries included).
type Exchange struct {
	Endpoint       string
	RequestBody    []byte
	RequestHeader  http.Header
	Spans          []Span
	Status         int
	ResponseHeader http.Header
	ResponseBody   []byte
	Frames         [][]byte
	Attempts       int
}

// EventKind names a stream event.
type EventKind string

// The four stream event kinds.
const (
	EventText     EventKind = "text"
	EventToolCall EventKind = "tool_call"
	EventUsage    EventKind = "usage"
	EventDone     EventKind = "done"
)

// StreamEvent is one step of a streamed reply: a text delta, one whole tool
// call, the usage, or — last — done with the authoritative Response.
type StreamEvent struct {
	Kind     EventKind
	Text     string
	ToolCall *ToolCall
	Usage    *Usage
	Response *Response
}
