// This file holds the model-call timeout a run can be given (WithModelTimeout): each call
// to the model, scripted or real, gets its own deadline.

package scenario

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"time"

	"github.com/agentfootprint/agentfootprint-go/llm"
)

// timedProvider gives every call to p a deadline of d.
type timedProvider struct {
	p llm.Provider
	d time.Duration
}

// withTimeout wraps p when d is positive; a provider that streams still streams.
func withTimeout(p llm.Provider, d time.Duration) llm.Provider {
	if d <= 0 || p == nil {
		return p
	}
	t := &timedProvider{p: p, d: d}
	if _, ok := p.(llm.Streamer); ok {
		return &timedStreamer{t}
	}
	return t
}

func (t *timedProvider) Name() string { return t.p.Name() }

// Capabilities reports the wrapped provider's.
func (t *timedProvider) Capabilities() llm.Caps { return llm.CapsOf(t.p) }

func (t *timedProvider) Complete(ctx context.Context, req *llm.Request) (*llm.Response, error) {
	callCtx, cancel := context.WithTimeout(ctx, t.d)
	defer cancel()
	resp, err := t.p.Complete(callCtx, req)
	return resp, t.explain(ctx, callCtx, err)
}

// explain names the timeout when it, and not the caller, ended the call.
func (t *timedProvider) explain(parent, callCtx context.Context, err error) error {
	if err == nil || parent.Err() != nil || !errors.Is(callCtx.Err(), context.DeadlineExceeded) {
		return err
	}
	return &llm.Error{Provider: t.p.Name(), Kind: llm.KindTimeout, Retryable: true, Resumable: true, Cause: err,
		Message: fmt.Sprintf("the model did not answer within the model-call timeout of %s; allow more time (--timeout) or check the model is running", t.d)}
}

// timedStreamer is a timedProvider whose provider streams.
type timedStreamer struct{ *timedProvider }

func (t *timedStreamer) Stream(ctx context.Context, req *llm.Request) iter.Seq2[llm.StreamEvent, error] {
	return func(yield func(llm.StreamEvent, error) bool) {
		callCtx, cancel := context.WithTimeout(ctx, t.d)
		defer cancel()
		for ev, err := range t.p.(llm.Streamer).Stream(callCtx, req) {
			if !yield(ev, t.explain(ctx, callCtx, err)) {
				return
			}
		}
	}
}
