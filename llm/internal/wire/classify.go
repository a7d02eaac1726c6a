// This file turns HTTP failures and provider error bodies into the one
// llm error vocabulary, with a sentence that names the fix.

package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/agentfootprint/agentfootprint-go/llm"
)

// Profile is what the classifier needs to know about a client to write a
// useful sentence. Key is used only to scrub it from provider text.
type Profile struct {
	Provider  string // "openai", "anthropic", "ollama"
	BaseURL   string
	Model     string
	KeyEnv    string // the environment variable that holds the key; "" when none is used
	KeyOption string // the option that sets the key, e.g. "openai.Options.APIKey"
	Key       string
	Ollama    bool // suggest `ollama serve` / `ollama pull`
}

// ProviderText is what a provider said about a failure, pulled out of its
// error body.
type ProviderText struct {
	Message string // the provider's own sentence, scrubbed and bounded
	Code    string // error.code or error.type (lower-cased)
	HTML    bool   // the body was an HTML page, not an API reply
}

// ReadProviderText extracts the provider's message from an error body in
// any of the three dialects: {"error":{"message","type","code"}} (OpenAI),
// {"type":"error","error":{"type","message"}} (Anthropic), {"error":"…"}
// (Ollama), or a compatible server's {"message","type","code"}/{"detail"}.
func ReadProviderText(body []byte, p Profile) ProviderText {
	t := bytes.TrimSpace(body)
	if len(t) == 0 {
		return ProviderText{}
	}
	if t[0] == '<' {
		return ProviderText{HTML: true, Message: "an HTML page instead of an API reply"}
	}
	var doc struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  json.RawMessage `json:"detail"`
		Type    string          `json:"type"`
		Code    json.RawMessage `json:"code"`
	}
	if err := json.Unmarshal(t, &doc); err != nil {
		return ProviderText{Message: p.Scrub(string(t))}
	}
	var out ProviderText
	var inner struct {
		Message string          `json:"message"`
		Type    string          `json:"type"`
		Code    json.RawMessage `json:"code"`
	}
	var s string
	switch {
	case len(doc.Error) > 0 && json.Unmarshal(doc.Error, &s) == nil:
		out.Message = s
	case len(doc.Error) > 0 && json.Unmarshal(doc.Error, &inner) == nil:
		out.Message = inner.Message
		out.Code = codeText(inner.Code, inner.Type)
	default:
		out.Message = doc.Message
		if out.Message == "" && len(doc.Detail) > 0 {
			if json.Unmarshal(doc.Detail, &s) == nil {
				out.Message = s
			} else {
				out.Message = string(doc.Detail)
			}
		}
		if doc.Type != "error" {
			out.Code = codeText(doc.Code, doc.Type)
		} else {
			out.Code = codeText(doc.Code, "")
		}
	}
	out.Message = p.Scrub(out.Message)
	return out
}

// codeText joins a code (string or number) and a type, lower-cased.
func codeText(code json.RawMessage, typ string) string {
	var c string
	if len(code) > 0 && string(code) != "null" {
		if json.Unmarshal(code, &c) != nil {
			c = string(code)
		}
	}
	return strings.ToLower(strings.TrimSpace(c + " " + typ))
}

var keyLike = regexp.MustCompile(`(sk-[A-Za-z0-9_\-*]{4,}|[A-Za-z0-9_\-]{0,8}\*{3,}[A-Za-z0-9_\-]*)`)

// Scrub removes the client's key and anything shaped like a key from
// provider text, and bounds it to 300 bytes.
func (p Profile) Scrub(s string) string {
	if p.Key != "" {
		s = strings.ReplaceAll(s, p.Key, "[redacted]")
	}
	s = keyLike.ReplaceAllString(s, "[redacted]")
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// Classify builds the error for a failed HTTP reply (status ≥ 400), a 200
// whose body is an error, or a stream error event (status 0). Kinds are
// checked in the spec's table order.
func Classify(p Profile, status int, header http.Header, body []byte) *llm.Error {
	pt := ReadProviderText(body, p)
	said := strings.ToLower(pt.Code + " " + pt.Message)
	e := &llm.Error{Provider: p.Provider, Status: status}
	if pt.Message != "" {
		e.Cause = fmt.Errorf("HTTP %d: %s", status, pt.Message)
	} else {
		e.Cause = fmt.Errorf("HTTP %d", status)
	}
	detail := ""
	if pt.Message != "" {
		detail = " (" + pt.Message + ")"
	}
	statusText := ""
	if status > 0 {
		statusText = fmt.Sprintf(" (HTTP %d)", status)
	}
	switch {
	case status == 401 || (status != 403 && containsAny(said, "invalid_api_key", "authentication_error", "invalid x-api-key", "incorrect api key")):
		e.Kind = llm.KindAuth
		e.Message = "the API key was rejected" + statusText + "; " + p.keyFix()
	case status == 403 || containsAny(said, "permission_error", "permission denied"):
		e.Kind = llm.KindAuth
		e.Message = "the API key lacks permission for this request" + statusText + detail + "; check the key's project, organisation and model access, or " + p.keyFix()
	case status == 429 || containsAny(said, "rate_limit", "insufficient_quota", "quota", "too many requests", "credit balance"):
		e.Kind = llm.KindRateLimit
		e.RetryAfter = RetryAfter(header)
		if containsAny(said, "insufficient_quota", "quota", "billing", "credit balance") {
			e.Retryable, e.Resumable = false, true
			e.Message = "the account's quota or credit is exhausted" + statusText + detail + "; add credit or raise the limit with the provider, since retrying will not help"
		} else {
			e.Retryable, e.Resumable = true, true
			wait := "after a short wait"
			if e.RetryAfter > 0 {
				wait = "after " + e.RetryAfter.String() + " as the provider asked"
			}
			e.Message = "the provider is throttling requests" + statusText + "; retry " + wait + ", or lower the request rate"
		}
	case status == 408:
		e.Kind = llm.KindTimeout
		e.Retryable, e.Resumable = true, true
		e.Message = "the provider timed out waiting for the request" + statusText + "; a later attempt may work"
	case containsAny(said, "context_length_exceeded", "prompt is too long", "maximum context length", "context length", "context window", "too many tokens", "input is too long"):
		e.Kind = llm.KindContextOverflow
		e.Message = "the request exceeded the model's context window" + detail + "; shorten the history, use a window strategy, or offer fewer tools"
	case (status == 404 || status == 400 || status == 0) && (containsAny(said, "model_not_found", "not_found_error") ||
		(strings.Contains(said, "model") && containsAny(said, "not found", "does not exist", "unknown model", "no such model"))):
		e.Kind = llm.KindModelMissing
		e.Message = p.modelMissing()
	case status >= 500 || status == 529 || containsAny(said, "overloaded", "api_error", "server_error", "internal error"):
		e.Kind = llm.KindServer
		e.Retryable, e.Resumable = true, true
		e.RetryAfter = RetryAfter(header)
		e.Message = "the provider failed on its side" + statusText + detail + "; a later attempt may work"
	case status == 400 || status == 404 || status == 413 || status == 422 || (status >= 400 && status < 500):
		e.Kind = llm.KindBadRequest
		if pt.HTML {
			e.Message = fmt.Sprintf("the server at %s answered with an HTML page%s; check the base URL points at the %s API and not a proxy or web page", p.BaseURL, statusText, p.Provider)
		} else {
			e.Message = "the provider refused the request as malformed" + statusText + detail
		}
	default:
		e.Kind = llm.KindUnknown
		_, e.Resumable = DefaultPolicy(llm.KindUnknown)
		switch {
		case pt.HTML:
			e.Message = fmt.Sprintf("the model call failed: the server at %s answered with an HTML page%s; check the base URL points at the %s API and not a proxy or web page", p.BaseURL, statusText, p.Provider)
		case pt.Message != "":
			e.Message = "the model call failed: " + pt.Message
		default:
			e.Message = fmt.Sprintf("the model call failed with HTTP %d and no explanation", status)
		}
	}
	return e
}

func (p Profile) keyFix() string {
	switch {
	case p.KeyEnv == "":
		return "check the server's authentication settings"
	case p.Key == "":
		return fmt.Sprintf("no key was set: set %s (or %s)", p.KeyEnv, p.KeyOption)
	default:
		return fmt.Sprintf("set a valid key in %s (or %s)", p.KeyEnv, p.KeyOption)
	}
}

func (p Profile) modelMissing() string {
	if p.Ollama {
		return fmt.Sprintf("model %q is not available at %s; fetch it with `ollama pull %s` or pick one `ollama list` shows", p.Model, p.BaseURL, p.Model)
	}
	return fmt.Sprintf("model %q is not available at %s; check the model name and that your key may use it", p.Model, p.BaseURL)
}

// RetryAfter reads the wait a provider asked for: retry-after-ms, or
// Retry-After as seconds or an HTTP date. Zero when absent or unreadable.
func RetryAfter(h http.Header) time.Duration {
	if h == nil {
		return 0
	}
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 && ms < 1e9 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s > 0 && s < 1e6 {
			return time.Duration(s * float64(time.Second))
		}
		return 0
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := time.Until(t); d > 0 {
			return d
		}
	}
	return 0
}

// TransportError classifies a failure to get (or finish reading) a reply:
// the context ending, nothing listening, a timeout, a cut connection.
// callCtx is the context the request ran under; parent is the caller's, so
// a deadline the client added (limit names it) is told apart from the
// caller's own.
func TransportError(p Profile, err error, parent, callCtx context.Context, limit string) *llm.Error {
	if perr := parent.Err(); perr != nil {
		return CtxError(p.Provider, errors.Join(perr, err), "")
	}
	if callCtx.Err() != nil {
		return CtxError(p.Provider, errors.Join(callCtx.Err(), err), limit)
	}
	var dnsErr *net.DNSError
	var opErr *net.OpError
	if errors.As(err, &dnsErr) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.EHOSTUNREACH) ||
		errors.Is(err, syscall.ENETUNREACH) || (errors.As(err, &opErr) && opErr.Op == "dial") {
		msg := fmt.Sprintf("nothing is listening at %s: check the URL or start the server", p.BaseURL)
		if p.Ollama {
			msg += " (`ollama serve`)"
		}
		return &llm.Error{Provider: p.Provider, Kind: llm.KindUnreachable, Resumable: true, Cause: err, Message: msg}
	}
	if errors.Is(err, ErrStreamCut) {
		return &llm.Error{Provider: p.Provider, Kind: llm.KindServer, Retryable: true, Resumable: true, Cause: err,
			Message: fmt.Sprintf("the stream from %s ended in the middle of an event (the connection closed before the event was complete); a later attempt may work", p.BaseURL)}
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return &llm.Error{Provider: p.Provider, Kind: llm.KindTimeout, Retryable: true, Resumable: true, Cause: err,
			Message: "the model call exceeded the HTTP client's timeout; allow more time or ask for a shorter reply"}
	}
	return &llm.Error{Provider: p.Provider, Kind: llm.KindServer, Retryable: true, Resumable: true, Cause: err,
		Message: fmt.Sprintf("the connection to %s broke before the reply was complete (%s); a later attempt may work", p.BaseURL, p.Scrub(err.Error()))}
}
