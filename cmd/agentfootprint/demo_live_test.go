package main

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// fakeChat is an OpenAI-compatible chat server standing in for a real model: it asks for
// service_status once, then answers from what the tool served. It keeps every request body.
type fakeChat struct {
	mu       sync.Mutex
	requests []map[string]any
}

func (f *fakeChat) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var req map[string]any
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, `{"error":{"message":"bad json"}}`, http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.requests = append(f.requests, req)
	f.mu.Unlock()
	msgs, _ := req["messages"].([]any)
	served := ""
	for _, m := range msgs {
		if mm, _ := m.(map[string]any); mm["role"] == "tool" {
			served, _ = mm["content"].(string)
		}
	}
	w.Header().Set("Content-Type", "application/json")
	if served == "" {
		w.Write([]byte(`{"id":"chatcmpl-1","object":"chat.completion","model":"fake-1","choices":[{"index":0,` +
			`"message":{"role":"assistant","content":"Checking checkout.","tool_calls":[{"id":"call_a","type":"function",` +
			`"function":{"name":"service_status","arguments":"{\"service\":\"checkout\"}"}}]},"finish_reason":"tool_calls"}],` +
			`"usage":{"prompt_tokens":50,"completion_tokens":9,"total_tokens":59}}`))
		return
	}
	answer, _ := json.Marshal("From the live model: " + served)
	w.Write([]byte(`{"id":"chatcmpl-2","object":"chat.completion","model":"fake-1","choices":[{"index":0,` +
		`"message":{"role":"assistant","content":` + string(answer) + `},"finish_reason":"stop"}],` +
		`"usage":{"prompt_tokens":80,"completion_tokens":20,"total_tokens":100}}`))
}

func TestDemoOnALiveModel(t *testing.T) {
	clearProviderEnv(t)
	fake := &fakeChat{}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	path := filepath.Join(t.TempDir(), "runs.db")
	out, errText, code := runCLI(t, "", "demo", "--part", "1", "--provider", "openai", "--model", "fake-1", "--base-url", srv.URL+"/v1", "--store", path)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errText, out)
	}
	if len(fake.requests) != 2 || fake.requests[0]["model"] != "fake-1" {
		t.Fatalf("the fake model saw %d requests (model %v), want 2 for fake-1", len(fake.requests), fake.requests)
	}
	// The canned service_status result reached the model, and its answer is the run's.
	if !strings.Contains(out, "Answer: From the live model:") || !strings.Contains(out, "degraded") {
		t.Errorf("the live answer is not printed:\n%s", out)
	}
	m := regexp.MustCompile(`Stored as run (run-[0-9a-f]{16}) in `).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("the live run is not stored:\n%s", out)
	}
	shown, _, code := runCLI(t, "", "show", m[1], "--store", path)
	if code != 0 || !strings.Contains(shown, "fake-1 on openai") || !strings.Contains(shown, "1. service_status {\"service\":\"checkout\"}") {
		t.Errorf("show of the live run:\n%s", shown)
	}
}

func TestDemoModelUnreachable(t *testing.T) {
	clearProviderEnv(t)
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	path := filepath.Join(t.TempDir(), "runs.db")
	out, errText, code := runCLI(t, "", "demo", "--provider", "ollama", "--model", "llama3.2", "--base-url", closed.URL, "--store", path)
	// The host is checked before anything runs: nothing is printed, nothing is stored.
	if code != 1 || out != "" {
		t.Errorf("exit %d, stdout %q", code, out)
	}
	want := "agentfootprint demo: cannot reach ollama at " + closed.URL + ": nothing is listening at " + closed.URL
	if !strings.HasPrefix(errText, want) || !strings.Contains(errText, "`ollama serve`") {
		t.Errorf("stderr %q, want it to start %q and say `ollama serve`", errText, want)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a run that never started created the store %s", path)
	}
}
