// This file holds the HTTP sender the clients share: exact bytes out,
// redacted headers kept for the record, retries only where they can help.

package wire

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	"github.com/agentfootprint/agentfootprint-go/llm"
)

// GetTimeout bounds a self-check request whose context has no deadline.
const GetTimeout = 15 * time.Second

// MaxErrorBody bounds how much of an error reply is read and kept.
const MaxErrorBody = 1 << 20

// Sender posts request bodies for one client.
type Sender struct {
	Profile      Profile
	HTTP         *http.Client
	Retry        llm.RetryPolicy
	TimeoutLabel string // names the client's own deadline in timeout sentences
}

// RedactHeader returns a copy of h with credentials replaced by "[redacted]":
// Authorization, x-api-key, and any header whose name mentions a key,
// token, secret or cookie.
func RedactHeader(h http.Header) http.Header {
	out := h.Clone()
	for k := range out {
		l := strings.ToLower(k)
		if l == "authorization" || l == "proxy-authorization" || strings.Contains(l, "key") ||
			strings.Contains(l, "token") || strings.Contains(l, "secret") || strings.Contains(l, "cookie") {
			out[k] = []string{"[redacted]"}
		}
	}
	return out
}

// Post sends body to url under callCtx, retrying retryable failures per
// the policy, and returns the first 2xx response with its body unread (the
// caller closes it). It fills ex with the endpoint, the exact body, the
// redacted headers, the attempts made, the final status and, for a
// failure, the error body. parent is the caller's context (see
// TransportError).
func (s *Sender) Post(parent, callCtx context.Context, url string, header http.Header, body []byte, ex *llm.Exchange) (*http.Response, error) {
	pol := RetryDefaults(s.Retry)
	ex.Endpoint = url
	ex.RequestBody = body
	ex.RequestHeader = RedactHeader(header)
	for attempt := 1; ; attempt++ {
		ex.Attempts = attempt
		req, err := http.NewRequestWithContext(callCtx, http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			return nil, &llm.Error{Provider: s.Profile.Provider, Kind: llm.KindBadRequest, Cause: err,
				Message: "the base URL " + s.Profile.BaseURL + " does not make a valid request URL; check it"}
		}
		req.Header = header.Clone()
		req.ContentLength = int64(len(body))
		resp, err := s.HTTP.Do(req)
		var le *llm.Error
		if err != nil {
			le = TransportError(s.Profile, err, parent, callCtx, s.TimeoutLabel)
		} else {
			ex.Status = resp.StatusCode
			ex.ResponseHeader = resp.Header.Clone()
			if resp.StatusCode < 300 {
				return resp, nil
			}
			errBody, _ := io.ReadAll(io.LimitReader(resp.Body, MaxErrorBody))
			resp.Body.Close()
			ex.ResponseBody = errBody
			le = Classify(s.Profile, resp.StatusCode, resp.Header, errBody)
		}
		if !le.Retryable || attempt >= pol.Attempts {
			return nil, le
		}
		wait := backoff(pol, attempt)
		if le.RetryAfter > 0 {
			if le.RetryAfter > pol.MaxDelay {
				return nil, le
			}
			wait = le.RetryAfter
		}
		t := time.NewTimer(wait)
		select {
		case <-callCtx.Done():
			t.Stop()
			return nil, TransportError(s.Profile, le, parent, callCtx, s.TimeoutLabel)
		case <-t.C:
		}
	}
}

// backoff is BaseDelay·2^(attempt-1) with ±25% jitter, capped at MaxDelay.
func backoff(p llm.RetryPolicy, attempt int) time.Duration {
	d := p.BaseDelay
	for i := 1; i < attempt && d < p.MaxDelay; i++ {
		d *= 2
	}
	d = min(d, p.MaxDelay)
	jitter := time.Duration(rand.Int64N(int64(d)/2+1)) - d/4
	return max(d+jitter, 0)
}

// Get performs a read-only GET for self-checks and returns the status and
// up to MaxErrorBody bytes of the body.
func (s *Sender) Get(ctx context.Context, url string, header http.Header) (int, []byte, *llm.Error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, GetTimeout)
		defer cancel()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, nil, &llm.Error{Provider: s.Profile.Provider, Kind: llm.KindBadRequest, Cause: err,
			Message: "the base URL " + s.Profile.BaseURL + " does not make a valid request URL; check it"}
	}
	req.Header = header.Clone()
	resp, err := s.HTTP.Do(req)
	if err != nil {
		return 0, nil, TransportError(s.Profile, err, ctx, ctx, "")
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, MaxErrorBody))
	return resp.StatusCode, b, nil
}

// JoinURL appends path to base without doubling or dropping the slash.
func JoinURL(base, path string) string {
	return strings.TrimRight(base, "/") + "/" + strings.TrimLeft(path, "/")
}

// EmitTail ends a stream: it yields each whole tool call, the usage when
// reported, and done with the response.
func EmitTail(out *llm.Response, yield func(llm.StreamEvent, error) bool) {
	for i := range out.ToolCalls {
		tc := out.ToolCalls[i]
		if !yield(llm.StreamEvent{Kind: llm.EventToolCall, ToolCall: &tc}, nil) {
			return
		}
	}
	if out.Usage.Reported {
		u := out.Usage
		if !yield(llm.StreamEvent{Kind: llm.EventUsage, Usage: &u}, nil) {
			return
		}
	}
	yield(llm.StreamEvent{Kind: llm.EventDone, Response: out}, nil)
}

// Attach records ex on err when err is an *llm.Error without an exchange,
// so a failed call keeps its bytes. Errors are fresh per call, so setting
// the field is safe. It returns err.
func Attach(err error, ex *llm.Exchange) error {
	var le *llm.Error
	if errors.As(err, &le) && le.Exchange == nil {
		le.Exchange = ex
	}
	return err
}

// CallHeader returns the headers of one call: a copy of extra, then a JSON
// Content-Type and an Accept of streamAccept for a stream or
// application/json otherwise. Credentials are the caller's to add.
func CallHeader(extra http.Header, stream bool, streamAccept string) http.Header {
	h := http.Header{}
	for k, v := range extra {
		h[k] = append([]string(nil), v...)
	}
	h.Set("Content-Type", "application/json")
	if stream {
		h.Set("Accept", streamAccept)
	} else {
		h.Set("Accept", "application/json")
	}
	return h
}
