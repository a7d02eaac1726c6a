// This file holds the scripted provider: replies played in order, with
// canonical-JSON exchanges and word-chunk streaming.

package scripted

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"strconv"
	"sync"
	"time"
	"unicode"

	"github.com/agentfootprint/agentfootprint-go/internal/textlen"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/internal/wire"
)

// providerName is what Provider.Name returns.
const providerName = "scripted"

// Reply is one scripted model reply. With Err set the call fails with Err
// (after Delay) and the other fields are ignored. A nil Usage means the
// default ⌈chars/4⌉ counts; an empty StopReason means tool_use when there
// are tool calls and stop otherwise.
type Reply struct {
	Content    string
	ToolCalls  []llm.ToolCall
	Usage      *llm.Usage
	StopReason llm.StopReason
	Err        error
	Delay      time.Duration
}

// Provider plays scripted replies. It is safe for concurrent use; calls
// are numbered in the order they take the lock.
type Provider struct {
	mu      sync.Mutex
	replies []Reply
	fn      func(req *llm.Request, call int, seed int64) Reply
	calls   int
	ids     int
	reqs    []*llm.Request
}

var (
	_ llm.Provider     = (*Provider)(nil)
	_ llm.Streamer     = (*Provider)(nil)
	_ llm.Capabilities = (*Provider)(nil)
)

// New returns a provider that answers call n with replies[n-1]. The slice
// is copied; the caller may reuse it.
func New(replies ...Reply) *Provider {
	return &Provider{replies: append([]Reply(nil), replies...)}
}

// Func returns a provider that computes every reply with fn, given the
// request, the 1-based call number and the request's seed (0 when unset).
// It never runs out. fn must not keep or modify req.
func Func(fn func(req *llm.Request, call int, seed int64) Reply) *Provider {
	return &Provider{fn: fn}
}

// Name returns "scripted".
func (p *Provider) Name() string { return providerName }

// Capabilities reports that seeds reach Func replies and that any tool
// choice is accepted.
func (p *Provider) Capabilities() llm.Caps {
	return llm.Caps{Seed: true, ForcedToolChoice: true}
}

// Reset rewinds the script to its first reply and forgets recorded
// requests and the id counter.
func (p *Provider) Reset() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls, p.ids, p.reqs = 0, 0, nil
}

// Requests returns copies of the requests received so far, in call order.
func (p *Provider) Requests() []*llm.Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]*llm.Request, len(p.reqs))
	for i, r := range p.reqs {
		out[i] = r.Clone()
	}
	return out
}

// Calls returns how many calls were made since New or Reset.
func (p *Provider) Calls() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.calls
}

// take records req and returns the reply for this call with ids filled in.
func (p *Provider) take(req *llm.Request) (Reply, int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls++
	call := p.calls
	p.reqs = append(p.reqs, req.Clone())
	var r Reply
	switch {
	case p.fn != nil:
		var seed int64
		if req.Seed != nil {
			seed = *req.Seed
		}
		r = p.fn(req, call, seed)
	case call > len(p.replies):
		return Reply{}, call, &ScriptExhaustedError{Call: call, Scripted: len(p.replies)}
	default:
		r = p.replies[call-1]
	}
	if len(r.ToolCalls) > 0 {
		calls := make([]llm.ToolCall, len(r.ToolCalls))
		for i, tc := range r.ToolCalls {
			p.ids++
			if tc.ID == "" {
				tc.ID = "call_" + strconv.Itoa(p.ids)
			}
			if len(tc.Args) == 0 && tc.ArgsError == "" {
				tc.Args = json.RawMessage("{}")
			}
			if tc.ArgsError != "" && !json.Valid(tc.Args) {
				// Raw text scripted by hand: hold it as a JSON string, as
				// llm.ParseArgs does, so the run's record encodes.
				tc.Args, _ = llm.ParseArgs(tc.Args)
			}
			calls[i] = tc
		}
		r.ToolCalls = calls
	}
	return r, call, nil
}

// Complete plays the next reply.
func (p *Provider) Complete(ctx context.Context, req *llm.Request) (*llm.Response, error) {
	if req == nil {
		return nil, &llm.Error{Provider: providerName, Kind: llm.KindBadRequest, Message: "the request is nil"}
	}
	if err := ctx.Err(); err != nil {
		return nil, wire.CtxError(providerName, err, "")
	}
	body, spans, err := wire.Canonical(req)
	if err != nil {
		return nil, &llm.Error{Provider: providerName, Kind: llm.KindBadRequest, Cause: err,
			Message: "the request could not be encoded: " + err.Error()}
	}
	r, call, err := p.take(req)
	if err != nil {
		return nil, err
	}
	if r.Delay > 0 {
		t := time.NewTimer(r.Delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, wire.CtxError(providerName, ctx.Err(), "")
		case <-t.C:
		}
	}
	if r.Err != nil {
		return nil, asLLMError(r.Err, &llm.Exchange{Endpoint: "scripted:", RequestBody: body, Spans: spans, Attempts: 1})
	}
	resp := &llm.Response{
		Content:     r.Content,
		ToolCalls:   r.ToolCalls,
		StopReason:  r.StopReason,
		Model:       req.Model,
		ProviderRef: "scripted-" + strconv.Itoa(call),
	}
	if resp.StopReason == "" {
		resp.StopReason = llm.StopEnd
		if len(r.ToolCalls) > 0 {
			resp.StopReason = llm.StopToolUse
		}
	}
	resp.RawStopReason = string(resp.StopReason)
	if r.Usage != nil {
		resp.Usage = *r.Usage
	} else {
		resp.Usage = llm.Usage{Input: quarter(requestChars(req)), Output: quarter(replyChars(r)), Reported: true}
	}
	out, _ := json.Marshal(replyWire{Content: resp.Content, ToolCalls: resp.ToolCalls, StopReason: resp.StopReason, Usage: resp.Usage})
	resp.Exchange = llm.Exchange{Endpoint: "scripted:", RequestBody: body, Spans: spans, Status: 200, ResponseBody: out, Attempts: 1}
	return resp, nil
}

// replyWire is the recorded response body.
type replyWire struct {
	Content    string         `json:"content"`
	ToolCalls  []llm.ToolCall `json:"toolCalls,omitempty"`
	StopReason llm.StopReason `json:"stopReason"`
	Usage      llm.Usage      `json:"usage"`
}

// Stream plays the next reply as word chunks, then each tool call, the
// usage, and done.
func (p *Provider) Stream(ctx context.Context, req *llm.Request) iter.Seq2[llm.StreamEvent, error] {
	return func(yield func(llm.StreamEvent, error) bool) {
		resp, err := p.Complete(ctx, req)
		if err != nil {
			yield(llm.StreamEvent{}, err)
			return
		}
		for _, w := range words(resp.Content) {
			if !yield(llm.StreamEvent{Kind: llm.EventText, Text: w}, nil) {
				return
			}
		}
		for i := range resp.ToolCalls {
			tc := resp.ToolCalls[i]
			if !yield(llm.StreamEvent{Kind: llm.EventToolCall, ToolCall: &tc}, nil) {
				return
			}
		}
		u := resp.Usage
		if !yield(llm.StreamEvent{Kind: llm.EventUsage, Usage: &u}, nil) {
			return
		}
		yield(llm.StreamEvent{Kind: llm.EventDone, Response: resp}, nil)
	}
}

// words splits s into chunks that each start with the whitespace before a
// word; concatenated they give s back.
func words(s string) []string {
	var out []string
	start := 0
	inWord := false
	for i, r := range s {
		sp := unicode.IsSpace(r)
		if sp && inWord {
			out = append(out, s[start:i])
			start = i
		}
		inWord = !sp
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// asLLMError returns a fresh *llm.Error for a scripted failure, carrying
// the exchange: a copy of a scripted *llm.Error (the script's own value is
// never modified), or foreign errors wrapped as unknown.
func asLLMError(err error, ex *llm.Exchange) error {
	var le *llm.Error
	if errors.As(err, &le) {
		c := *le
		if c.Provider == "" {
			c.Provider = providerName
		}
		c.Exchange = ex
		return &c
	}
	_, res := wire.DefaultPolicy(llm.KindUnknown)
	return &llm.Error{Provider: providerName, Kind: llm.KindUnknown, Resumable: res, Cause: err, Exchange: ex,
		Message: "the model call failed: " + err.Error()}
}

// quarter is ⌈n/4⌉.
func quarter(n int) int { return (n + 3) / 4 }

func requestChars(req *llm.Request) int {
	n := textlen.UTF16(llm.SystemText(req.System))
	for _, m := range req.Messages {
		n += textlen.UTF16(m.Content)
		for _, tc := range m.ToolCalls {
			n += textlen.UTF16(tc.Name) + textlen.UTF16(string(tc.Args))
		}
	}
	return n
}

func replyChars(r Reply) int {
	n := textlen.UTF16(r.Content)
	for _, tc := range r.ToolCalls {
		n += textlen.UTF16(tc.Name) + textlen.UTF16(string(tc.Args))
	}
	return n
}

// ScriptExhaustedError reports a call made after the last scripted reply.
// Call is the 1-based number of that call; Scripted how many replies exist.
type ScriptExhaustedError struct {
	Call     int
	Scripted int
}

// Error says which call ran out and what usually fixes it.
func (e *ScriptExhaustedError) Error() string {
	return fmt.Sprintf("scripted: call %d was made but only %d replies were scripted; add a reply for it, or check maxIterations and the wrap-up call (a run makes up to maxIterations+1 model calls)", e.Call, e.Scripted)
}
