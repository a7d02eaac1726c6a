package openai

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/llm"
)

// A reply larger than MaxResponseBytes is refused, whole or streamed, by an error naming
// the option; a reply within it is read. (Before, a whole reply was silently cut at 64 MiB
// and then misread, and a stream had no bound at all.)
func TestReplyLargerThanTheCapIsRefused(t *testing.T) {
	content := strings.Repeat("x", 4000)
	whole := `{"id":"c1","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"` + content + `"},"finish_reason":"stop"}]}`
	var streamed bool
	stream := "data: " + head + `{"content":"` + content + `"},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		streamed = strings.Contains(string(body), `"stream":true`)
		if streamed {
			w.Header().Set("Content-Type", "text/event-stream")
			w.Write([]byte(stream))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(whole))
	}))
	defer srv.Close()
	for _, tc := range []struct {
		name   string
		limit  int64
		stream bool
		refuse bool
	}{
		{"whole, over", 1000, false, true},
		{"whole, within", 8000, false, false},
		{"stream, over", 1000, true, true},
		{"stream, within", 8000, true, false},
		{"no cap", -1, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newAPIClient(Options{BaseURL: srv.URL, APIKey: "k", Model: "m", MaxResponseBytes: tc.limit, Retry: llm.RetryPolicy{Attempts: 1}})
			var resp *llm.Response
			var err error
			if tc.stream {
				resp, err = llm.Collect(c.Stream(context.Background(), req()))
			} else {
				resp, err = c.Complete(context.Background(), req())
			}
			if streamed != tc.stream {
				t.Fatalf("the server saw stream=%v", streamed)
			}
			if !tc.refuse {
				if err != nil || resp.Content != content {
					t.Fatalf("within the cap: %v", err)
				}
				return
			}
			var le *llm.Error
			if !errors.As(err, &le) || !strings.Contains(le.Message, "is larger than the limit of 1000 bytes (openai.Options.MaxResponseBytes)") || le.Retryable {
				t.Fatalf("err = %v; want a refusal naming the option, not retryable", err)
			}
		})
	}
	if got := newAPIClient(Options{}).caller.MaxBody; got != 32<<20 {
		t.Errorf("default cap = %d, want 32 MiB", got)
	}
}
