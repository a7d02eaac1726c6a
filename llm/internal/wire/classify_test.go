package wire

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/llm"
)

func TestReadProviderText(t *testing.T) {
	p := Profile{Key: "sk-live-abcdef123456"}
	tests := []struct{ body, msg, code string }{
		{`{"error":{"message":"Incorrect API key provided: sk-live-abcdef123456","type":"invalid_request_error","code":"invalid_api_key"}}`, "Incorrect API key provided: [redacted]", "invalid_api_key invalid_request_error"},
		{`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, "Overloaded", "overloaded_error"},
		{`{"error":"model \"x\" not found, try pulling it first"}`, `model "x" not found, try pulling it first`, ""},
		{`{"object":"error","message":"bad","type":"BadRequestError","code":400}`, "bad", "400 badrequesterror"},
		{`{"detail":"Not Found"}`, "Not Found", ""},
		{`<html>502</html>`, "an HTML page instead of an API reply", ""},
		{`plain text   with   spaces`, "plain text with spaces", ""},
		{`key sk-proj-ABCDEFGHIJ leaked`, "key [redacted] leaked", ""},
	}
	for _, tt := range tests {
		got := ReadProviderText([]byte(tt.body), p)
		if got.Message != tt.msg || got.Code != tt.code {
			t.Errorf("ReadProviderText(%s) = %q/%q, want %q/%q", tt.body, got.Message, got.Code, tt.msg, tt.code)
		}
	}
}

func TestRetryAfter(t *testing.T) {
	tests := []struct {
		h    http.Header
		want time.Duration
	}{
		{http.Header{"Retry-After": {"2"}}, 2 * time.Second},
		{http.Header{"Retry-After": {"0.5"}}, 500 * time.Millisecond},
		{http.Header{"Retry-After-Ms": {"250"}, "Retry-After": {"9"}}, 250 * time.Millisecond},
		{http.Header{"Retry-After": {"soon"}}, 0},
		{http.Header{"Retry-After": {"-3"}}, 0},
		{nil, 0},
	}
	for _, tt := range tests {
		if got := RetryAfter(tt.h); got != tt.want {
			t.Errorf("RetryAfter(%v) = %v, want %v", tt.h, got, tt.want)
		}
	}
	future := time.Now().Add(90 * time.Second).UTC().Format(http.TimeFormat)
	if got := RetryAfter(http.Header{"Retry-After": {future}}); got < 80*time.Second || got > 91*time.Second {
		t.Errorf("HTTP-date Retry-After = %v", got)
	}
}

func TestClassifyTableOrder(t *testing.T) {
	p := Profile{Provider: "x", BaseURL: "http://h", Model: "m", KeyEnv: "X_KEY", KeyOption: "x.Options.APIKey"}
	tests := []struct {
		status int
		body   string
		kind   llm.ErrorKind
		says   string
	}{
		{401, ``, llm.KindAuth, "no key was set: set X_KEY (or x.Options.APIKey)"},
		{429, `{"error":{"message":"quota exceeded"}}`, llm.KindRateLimit, "retrying will not help"},
		{400, `{"error":{"message":"maximum context length is 8192 tokens"}}`, llm.KindContextOverflow, "context window"},
		{404, `{"error":{"message":"model 'm' not found"}}`, llm.KindModelMissing, `model "m" is not available at http://h`},
		{404, `{"error":{"message":"route not found"}}`, llm.KindBadRequest, "route not found"},
		{500, ``, llm.KindServer, "HTTP 500"},
		{0, `{"error":{"message":"weird"}}`, llm.KindUnknown, "the model call failed: weird"},
		{302, ``, llm.KindUnknown, "HTTP 302 and no explanation"},
	}
	for _, tt := range tests {
		e := Classify(p, tt.status, nil, []byte(tt.body))
		if e.Kind != tt.kind || !strings.Contains(e.Message, tt.says) {
			t.Errorf("Classify(%d, %s) = %s %q", tt.status, tt.body, e.Kind, e.Message)
		}
		if e.Retryable && e.Kind != llm.KindServer && e.Kind != llm.KindRateLimit && e.Kind != llm.KindTimeout {
			t.Errorf("%s marked retryable", e.Kind)
		}
	}
}

func TestTransportErrorContexts(t *testing.T) {
	p := Profile{Provider: "x", BaseURL: "http://h"}
	parent, cancel := context.WithCancel(context.Background())
	cancel()
	if e := TransportError(p, errors.New("boom"), parent, parent, ""); e.Kind != llm.KindCanceled {
		t.Errorf("cancelled parent = %s", e.Kind)
	}
	call, stop := context.WithTimeout(context.Background(), 0)
	defer stop()
	<-call.Done()
	e := TransportError(p, errors.New("boom"), context.Background(), call, "the client timeout of 1s (x.Options.Timeout)")
	if e.Kind != llm.KindTimeout || !strings.Contains(e.Message, "x.Options.Timeout") || !e.Retryable {
		t.Errorf("client deadline = %s %q", e.Kind, e.Message)
	}
	if e := TransportError(p, errors.New("connection reset by peer"), context.Background(), context.Background(), ""); e.Kind != llm.KindServer {
		t.Errorf("reset = %s", e.Kind)
	}
}

func TestRedactHeader(t *testing.T) {
	h := http.Header{"Authorization": {"Bearer s"}, "X-Api-Key": {"s"}, "Api-Key": {"s"}, "Content-Type": {"application/json"}, "X-Goog-Api-Key": {"s"}}
	got := RedactHeader(h)
	for k, v := range got {
		if k != "Content-Type" && v[0] != "[redacted]" {
			t.Errorf("%s kept %q", k, v)
		}
	}
	if h.Get("Authorization") != "Bearer s" {
		t.Error("RedactHeader changed its input")
	}
}

func FuzzClassify(f *testing.F) {
	f.Add(400, []byte(`{"error":{"message":"x","code":123}}`))
	f.Add(200, []byte(`{"type":"error","error":"s"}`))
	f.Add(503, []byte(`<html>`))
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		e := Classify(Profile{Provider: "x", Key: "secret-key-value"}, status, nil, body)
		if e.Kind == "" || e.Message == "" {
			t.Fatalf("empty classification for %d %q", status, body)
		}
		if strings.Contains(e.Message, "secret-key-value") {
			t.Fatal("key leaked into the message")
		}
	})
}
