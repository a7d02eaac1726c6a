// The defaults the wire clients apply to a failure: whether its kind is
// retried and resumable, and the retry bounds a zero RetryPolicy stands for.

package wire

import (
	"time"

	"github.com/agentfootprint/agentfootprint-go/llm"
)

// DefaultPolicy returns whether a failure of kind k is, by default,
// retryable and resumable. A rate limit caused by an exhausted quota is the
// one exception and is decided by the caller.
func DefaultPolicy(k llm.ErrorKind) (retryable, resumable bool) {
	switch k {
	case llm.KindRateLimit, llm.KindTimeout, llm.KindServer:
		return true, true
	case llm.KindUnreachable, llm.KindUnknown:
		return false, true
	default:
		return false, false
	}
}

// RetryDefaults returns p with zero fields replaced by the defaults stated on
// llm.RetryPolicy: 3 attempts, a first backoff of 500ms, waits of at most 30s.
func RetryDefaults(p llm.RetryPolicy) llm.RetryPolicy {
	if p.Attempts <= 0 {
		p.Attempts = 3
	}
	if p.BaseDelay <= 0 {
		p.BaseDelay = 500 * time.Millisecond
	}
	if p.MaxDelay <= 0 {
		p.MaxDelay = 30 * time.Second
	}
	return p
}
