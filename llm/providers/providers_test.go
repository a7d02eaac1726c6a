package providers

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/llm"
)

func TestOpen(t *testing.T) {
	for _, name := range Names() {
		c, err := Open(Config{Provider: name, Model: "m", BaseURL: "http://127.0.0.1:1"})
		if err != nil || c.Name() != name || c.BaseURL() != "http://127.0.0.1:1" {
			t.Errorf("Open(%s) = %v, %v", name, c, err)
		}
	}
	if _, err := Open(Config{Provider: "gemini", Model: "m"}); err == nil || !strings.Contains(err.Error(), `"gemini" is not one of anthropic, ollama, openai`) {
		t.Errorf("unknown provider: %v", err)
	}
	if _, err := Open(Config{Provider: "openai"}); err == nil || !strings.Contains(err.Error(), "model:") {
		t.Errorf("missing model: %v", err)
	}
	if KeyEnv("openai") != "OPENAI_API_KEY" || KeyEnv("anthropic") != "ANTHROPIC_API_KEY" || KeyEnv("ollama") != "" {
		t.Error("KeyEnv")
	}
}

func TestDiagnose(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"models":[{"name":"qwen3:0.6b"}]}`)
	}))
	defer srv.Close()
	got := Diagnose(context.Background(), Config{Provider: "ollama", Model: "qwen3:0.6b", BaseURL: srv.URL})
	want := []llm.Diagnosis{
		{Check: "key", OK: true, Message: "Ollama needs no API key"},
		{Check: "server", OK: true, Message: "Ollama answers at " + srv.URL},
		{Check: "model", OK: true, Message: `model "qwen3:0.6b" is pulled`},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
	got = Diagnose(context.Background(), Config{Provider: "nope", Model: "m"})
	if len(got) != 1 || got[0].OK || got[0].Check != "config" {
		t.Errorf("bad config: %+v", got)
	}
}
