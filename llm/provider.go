// This file holds the provider interfaces: the one required method set and
// the optional streaming and capability ones.

package llm

import (
	"context"
	"errors"
	"iter"
)

// Provider is a model the agent can call. Complete sends one request and
// returns the whole reply, or an *Error. Implementations must be safe for
// concurrent use and must not keep or modify req (an encoder may write the
// request's spans into req.SpanBuffer's array; see Request).
type Provider interface {
	Name() string
	Complete(ctx context.Context, req *Request) (*Response, error)
}

// Streamer is implemented by providers that can stream. The sequence
// yields text deltas and whole tool calls, and ends with exactly one
// EventDone carrying the Response; on failure it yields one non-nil error
// and stops. A sequence that ends without EventDone is an error for the
// caller (see [Collect]).
type Streamer interface {
	Stream(ctx context.Context, req *Request) iter.Seq2[StreamEvent, error]
}

// Caps says what a provider honours beyond the common request.
type Caps struct {
	Seed             bool // Request.Seed reaches the model
	ForcedToolChoice bool // ToolChoiceRequired and ToolChoiceTool are honoured
}

// Capabilities is implemented by providers that report their Caps.
type Capabilities interface {
	Capabilities() Caps
}

// CapsOf returns p's capabilities, or the zero Caps when p does not report them.
func CapsOf(p Provider) Caps {
	if c, ok := p.(Capabilities); ok {
		return c.Capabilities()
	}
	return Caps{}
}

// ErrNoDone is returned by [Collect] when a stream ends without its done event.
var ErrNoDone = errors.New("llm: the stream ended without a done event")

// Collect drains a stream and returns the Response its done event carried.
// It returns the stream's own error, or ErrNoDone when none came.
func Collect(seq iter.Seq2[StreamEvent, error]) (*Response, error) {
	var resp *Response
	for ev, err := range seq {
		if err != nil {
			return nil, err
		}
		if ev.Kind == EventDone && ev.Response != nil {
			resp = ev.Response
		}
	}
	if resp == nil {
		return nil, ErrNoDone
	}
	return resp, nil
}
