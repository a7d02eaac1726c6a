// This file turns a context's end into the llm error vocabulary.

package wire

import (
	"context"
	"errors"

	"github.com/agentfootprint/agentfootprint-go/llm"
)

// CtxError returns the *llm.Error for a call ended by its context: timeout
// for a passed deadline, canceled otherwise. limit names the deadline in
// the sentence (for example "the request timeout of 30s"); empty means the
// caller's context deadline.
func CtxError(provider string, err error, limit string) *llm.Error {
	if errors.Is(err, context.DeadlineExceeded) {
		if limit == "" {
			limit = "the deadline set on the call's context"
		}
		r, s := DefaultPolicy(llm.KindTimeout)
		return &llm.Error{Provider: provider, Kind: llm.KindTimeout, Retryable: r, Resumable: s, Cause: err,
			Message: "the model call exceeded " + limit + "; allow more time or ask for a shorter reply"}
	}
	return &llm.Error{Provider: provider, Kind: llm.KindCanceled, Cause: err,
		Message: "the caller cancelled the model call"}
}
