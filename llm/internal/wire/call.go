// This file holds the call driver the clients share: checking and encoding
// a request, bounding it in time, posting it, and turning the reply (whole
// or streamed) into a response or an *llm.Error that keeps the exchange.

package wire

import (
	"context"
	"errors"
	"io"
	"iter"
	"net/http"
	"strings"
	"time"

	"github.com/agentfootprint/agentfootprint-go/llm"
)

// Caller is one client's description of how its calls are prepared. It is
// built once by the client's constructor and never changed afterwards.
type Caller struct {
	// Sender posts the bodies; its Profile.Model is the default model.
	Sender *Sender
	// Timeout bounds one whole call; 0 or negative means none.
	Timeout time.Duration
	// ModelHint names where a model can be set, completing the sentence
	// "set Request.Model or ...".
	ModelHint string
	// MaxBody bounds one reply, whole or streamed; negative means none.
	MaxBody int64
	// MaxBodyOption names the option that sets MaxBody, for the refusal.
	MaxBodyOption string
	// Encode returns the exact request body and the spans recorded for it.
	Encode func(req *llm.Request, stream bool) ([]byte, []llm.Span, error)
}

// Decoder reads a whole (non-streamed) reply body.
type Decoder func(raw []byte, p Profile, h http.Header) (*llm.Response, error)

// StreamReader decodes a streamed body into a response, appending each
// frame to ex.Frames and calling onText per text delta; it returns
// (nil, nil) when onText asks to stop. Errors that are not *llm.Error are
// treated as transport failures.
type StreamReader func(resp *http.Response, ex *llm.Exchange, p Profile, onText func(string) bool) (*llm.Response, error)

// call is one request in flight.
type call struct {
	s       *Sender // carries the request's model
	parent  context.Context
	ctx     context.Context
	cancel  context.CancelFunc
	maxBody int64
	option  string // the option that sets maxBody
	ex      llm.Exchange
}

// begin checks req, encodes it and opens the call's context. The caller
// must call cancel on the returned call.
func (k *Caller) begin(ctx context.Context, req *llm.Request, stream bool) (*call, []byte, error) {
	p := k.Sender.Profile.Provider
	if req == nil {
		return nil, nil, &llm.Error{Provider: p, Kind: llm.KindBadRequest, Message: "the request is nil"}
	}
	model := req.Model
	if model == "" {
		model = k.Sender.Profile.Model
	}
	if model == "" {
		return nil, nil, &llm.Error{Provider: p, Kind: llm.KindBadRequest,
			Message: "no model was named; set Request.Model or " + k.ModelHint}
	}
	body, spans, err := k.Encode(req, stream)
	if err != nil {
		return nil, nil, &llm.Error{Provider: p, Kind: llm.KindBadRequest, Cause: err,
			Message: "the request could not be encoded: " + err.Error()}
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, CtxError(p, err, "")
	}
	callCtx, cancel := ctx, context.CancelFunc(func() {})
	if k.Timeout > 0 {
		callCtx, cancel = context.WithTimeout(ctx, k.Timeout)
	}
	s := *k.Sender
	s.Profile.Model = model
	return &call{s: &s, parent: ctx, ctx: callCtx, cancel: cancel, maxBody: k.MaxBody, option: k.MaxBodyOption,
		ex: llm.Exchange{Spans: spans}}, body, nil
}

// post sends body; a failure carries the exchange.
func (c *call) post(url string, header http.Header, body []byte) (*http.Response, error) {
	resp, err := c.s.Post(c.parent, c.ctx, url, header, body, &c.ex)
	if err != nil {
		return nil, Attach(err, &c.ex)
	}
	return resp, nil
}

// transport turns an error that is not already an *llm.Error into the
// transport failure it stands for.
func (c *call) transport(err error) error {
	if errors.Is(err, ErrTooLarge) {
		return tooLarge(c.s.Profile, c.maxBody, c.option, err)
	}
	if le := (*llm.Error)(nil); !errors.As(err, &le) {
		return TransportError(c.s.Profile, err, c.parent, c.ctx, c.s.TimeoutLabel)
	}
	return err
}

// readWhole reads a bounded whole body and decodes it. attachRead says
// whether a read failure keeps the exchange.
func (c *call) readWhole(resp *http.Response, decode Decoder, attachRead bool) (*llm.Response, error) {
	raw, err := io.ReadAll(&capReader{r: resp.Body, left: c.maxBody})
	if errors.Is(err, ErrTooLarge) {
		return nil, Attach(tooLarge(c.s.Profile, c.maxBody, c.option, err), &c.ex)
	}
	if err != nil {
		le := TransportError(c.s.Profile, err, c.parent, c.ctx, c.s.TimeoutLabel)
		if attachRead {
			return nil, Attach(le, &c.ex)
		}
		return nil, le
	}
	c.ex.ResponseBody = raw
	out, err := decode(raw, c.s.Profile, resp.Header)
	if err != nil {
		return nil, Attach(err, &c.ex)
	}
	out.Exchange = c.ex
	return out, nil
}

// Complete sends one non-streaming request to url and decodes the reply.
func (k *Caller) Complete(ctx context.Context, req *llm.Request, url string, header http.Header, decode Decoder) (*llm.Response, error) {
	c, body, err := k.begin(ctx, req, false)
	if err != nil {
		return nil, err
	}
	defer c.cancel()
	resp, err := c.post(url, header, body)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return c.readWhole(resp, decode, true)
}

// Stream sends one streaming request to url and yields text deltas as
// they arrive, then each whole tool call, the usage when reported, and
// done. When plain is not nil, a reply whose Content-Type is JSON or HTML
// (an error, a proxy page, or a whole reply with streaming ignored) is
// decoded by plain instead of read.
func (k *Caller) Stream(ctx context.Context, req *llm.Request, url string, header func() http.Header, plain Decoder, read StreamReader) iter.Seq2[llm.StreamEvent, error] {
	return func(yield func(llm.StreamEvent, error) bool) {
		c, body, err := k.begin(ctx, req, true)
		if err != nil {
			yield(llm.StreamEvent{}, err)
			return
		}
		defer c.cancel()
		resp, err := c.post(url, header(), body)
		if err != nil {
			yield(llm.StreamEvent{}, err)
			return
		}
		defer resp.Body.Close()
		resp.Body = &capBody{capReader{r: resp.Body, left: c.maxBody}, resp.Body}
		if ct := resp.Header.Get("Content-Type"); plain != nil && (strings.Contains(ct, "json") || strings.Contains(ct, "html")) {
			out, err := c.readWhole(resp, plain, false)
			if err != nil {
				yield(llm.StreamEvent{}, err)
				return
			}
			if out.Content != "" && !yield(llm.StreamEvent{Kind: llm.EventText, Text: out.Content}, nil) {
				return
			}
			EmitTail(out, yield)
			return
		}
		out, err := read(resp, &c.ex, c.s.Profile, func(text string) bool {
			return yield(llm.StreamEvent{Kind: llm.EventText, Text: text}, nil)
		})
		if err != nil {
			yield(llm.StreamEvent{}, Attach(c.transport(err), &c.ex))
			return
		}
		if out == nil { // the consumer stopped early
			return
		}
		out.Exchange = c.ex
		EmitTail(out, yield)
	}
}

// TimeoutOr returns t, or def when t is zero (a negative t means none and
// is returned as is).
func TimeoutOr(t, def time.Duration) time.Duration {
	if t == 0 {
		return def
	}
	return t
}

// ModelOr returns the request's model, or def when the request names none.
func ModelOr(req *llm.Request, def string) string {
	if req.Model != "" {
		return req.Model
	}
	return def
}

// Setup is what a client's constructor knows about its calls.
type Setup struct {
	// Profile names the provider, base URL, default model and key.
	Profile Profile
	// HTTP sends the requests; nil means a plain client.
	HTTP *http.Client
	// Retry bounds retries of failures that can pass.
	Retry llm.RetryPolicy
	// Timeout bounds one whole call (already defaulted); 0 or negative
	// means none.
	Timeout time.Duration
	// Pkg is the client package's name, used to name its options in
	// messages ("openai.Options.Timeout").
	Pkg string
	// ModelHint, when set, replaces "<Pkg>.Options.Model" in the sentence
	// that asks for a model.
	ModelHint string
	// MaxBody bounds one reply, whole or streamed: 0 means
	// 32 MiB, negative none. It is set by
	// <Pkg>.Options.MaxResponseBytes.
	MaxBody int64
	// Encode returns the exact request body and its spans.
	Encode func(req *llm.Request, stream bool) ([]byte, []llm.Span, error)
}

// NewCaller builds the sender and caller a client's constructor keeps.
func NewCaller(s Setup) *Caller {
	hc := s.HTTP
	if hc == nil {
		hc = &http.Client{}
	}
	hint := s.ModelHint
	if hint == "" {
		hint = s.Pkg + ".Options.Model"
	}
	return &Caller{
		Sender: &Sender{Profile: s.Profile, HTTP: hc, Retry: s.Retry,
			TimeoutLabel: "the client timeout of " + s.Timeout.String() + " (" + s.Pkg + ".Options.Timeout)"},
		Timeout:       s.Timeout,
		ModelHint:     hint,
		MaxBody:       MaxBodyOr(s.MaxBody),
		MaxBodyOption: s.Pkg + ".Options.MaxResponseBytes",
		Encode:        s.Encode,
	}
}

// FirstSet returns the first of vals that is not empty, or "".
func FirstSet(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}
