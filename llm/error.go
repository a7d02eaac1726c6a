// This file holds the one error vocabulary every provider speaks.

package llm

import (
	"errors"
	"time"
)

// ErrorKind classifies a failed model call. Callers branch on it.
type ErrorKind string

// The error kinds, in the order a failure is checked against them.
const (
	KindCanceled        ErrorKind = "canceled"
	KindUnreachable     ErrorKind = "unreachable"
	KindAuth            ErrorKind = "auth"
	KindRateLimit       ErrorKind = "rate-limit"
	KindTimeout         ErrorKind = "timeout"
	KindContextOverflow ErrorKind = "context-overflow"
	KindModelMissing    ErrorKind = "model-missing"
	KindServer          ErrorKind = "server"
	KindBadRequest      ErrorKind = "bad-request"
	KindUnknown         ErrorKind = "unknown"
)

// Error is the one error type every provider returns. Message is a single
// sentence that says what happened and what to do about it; it never holds
// a key. Retryable says whether sending the same request again can help
// (the clients already retried it when so); Resumable says whether
// resuming the run later can help. RetryAfter is the wait the provider
// asked for, when it gave one. Cause is the raw error or provider text.
// Exchange, when the failure came after the request was built, holds what
// was sent and what came back before the failure (the error body, the
// frames received), so a record keeps the bytes of a failed call too.
type Error struct {
	Provider   string
	Kind       ErrorKind
	Status     int
	Retryable  bool
	Resumable  bool
	RetryAfter time.Duration
	Message    string
	Cause      error
	Exchange   *Exchange
}

// Error returns "<provider>: <message>".
func (e *Error) Error() string {
	if e.Provider == "" {
		return e.Message
	}
	return e.Provider + ": " + e.Message
}

// Unwrap returns the raw cause.
func (e *Error) Unwrap() error { return e.Cause }

// Is lets errors.Is(err, &llm.Error{Kind: k}) match any *Error of kind k.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Kind == e.Kind && t.Provider == "" && t.Message == ""
}

// KindOf returns the Kind of the *Error in err's chain, or "" when there is none.
func KindOf(err error) ErrorKind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return ""
}
