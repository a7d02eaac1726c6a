// This file holds the retry policy the wire clients apply to failures that
// a second attempt can fix.

package llm

import "time"

// RetryPolicy bounds the clients' retries. Only failures whose Error is
// Retryable are retried (throttling that is not an exhausted quota,
// timeouts, the provider's own failures); never a bad key, a missing model
// or a malformed request. A wait the provider asks for (Retry-After) is
// honoured when it is at most MaxDelay; a longer one ends the call with
// Error.RetryAfter set. The zero value means the defaults.
type RetryPolicy struct {
	Attempts  int           // total attempts including the first; 0 = 3, 1 = never retry
	BaseDelay time.Duration // first backoff; doubles each time; 0 = 500ms
	MaxDelay  time.Duration // longest single wait; 0 = 30s
}
