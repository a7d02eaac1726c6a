// This file checks that a provider's key and headers never reach a span,
// even with content capture on.

package otelexport_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/llm/openai"
	"github.com/agentfootprint/agentfootprint-go/otelexport"
	"go.opentelemetry.io/otel/attribute"
)

func TestNoKeysOrHeadersInSpans(t *testing.T) {
	const secret = "sk-test-DO-NOT-EXPORT-4242"
	var sawKey bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		sawKey = r.Header.Get("Authorization") == "Bearer "+secret
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"chatcmpl-1","object":"chat.completion","model":"gpt-test",`+
			`"choices":[{"index":0,"message":{"role":"assistant","content":"All services are healthy."},"finish_reason":"stop"}],`+
			`"usage":{"prompt_tokens":12,"completion_tokens":5,"total_tokens":17}}`)
	}))
	defer srv.Close()
	p := openai.New(openai.Options{BaseURL: srv.URL, APIKey: secret, Model: "gpt-test"})
	a, err := agent.New(p, agent.WithID("keyed"), agent.WithModel("gpt-test"))
	if err != nil {
		t.Fatal(err)
	}
	x, sr := recorded(t, otelexport.WithContent(true))
	obs := x.Observer(context.Background())
	detach := obs.Attach(a.MustOn)
	res, runErr := a.Run(context.Background(), agent.Input{Message: "Is anything broken?"})
	detach()
	if runErr != nil {
		t.Fatalf("run: %v", runErr)
	}
	obs.End(res.Record, nil)
	if !sawKey {
		t.Fatal("the provider did not send the key; the test proves nothing")
	}
	spans := sr.Ended()
	if len(spans) != 2 {
		t.Fatalf("%d spans, want the root and one chat span", len(spans))
	}
	var all []attribute.KeyValue
	for _, s := range spans {
		all = append(all, s.Attributes()...)
		for _, e := range s.Events() {
			all = append(all, e.Attributes...)
		}
	}
	sawContent := false
	for _, kv := range all {
		v := kv.Value.String()
		for _, bad := range []string{secret, "Bearer", "Authorization", "authorization"} {
			if strings.Contains(string(kv.Key), bad) || strings.Contains(v, bad) {
				t.Errorf("attribute %s = %q carries %q", kv.Key, v, bad)
			}
		}
		if strings.Contains(v, "All services are healthy.") {
			sawContent = true
		}
	}
	if !sawContent {
		t.Error("content capture is on but the reply's text is in no attribute")
	}
}
