package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/llm/openai"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// badArgsText is the tool-call argument text that used to lose the run (issue 12 item 1):
// not JSON, with a brace inside so a lenient reader could be fooled.
const badArgsText = "this is {not json"

// badArgsChat is an OpenAI-compatible server whose first reply asks for service_status with
// arguments that are not JSON, and whose second reply answers. It streams when asked to.
type badArgsChat struct{ calls atomic.Int32 }

func (f *badArgsChat) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req struct {
		Stream bool `json:"stream"`
	}
	_ = json.Unmarshal(body, &req)
	n := f.calls.Add(1)
	args, _ := json.Marshal(badArgsText)
	if req.Stream {
		w.Header().Set("Content-Type", "text/event-stream")
		if n == 1 {
			fmt.Fprintf(w, "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"model\":\"fake-1\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"tool_calls\":[{\"index\":0,\"id\":\"call_a\",\"type\":\"function\",\"function\":{\"name\":\"service_status\",\"arguments\":%s}}]},\"finish_reason\":null}]}\n\n", args)
			fmt.Fprint(w, "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"model\":\"fake-1\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n")
		} else {
			fmt.Fprint(w, "data: {\"id\":\"c2\",\"object\":\"chat.completion.chunk\",\"model\":\"fake-1\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"I could not check.\"},\"finish_reason\":null}]}\n\n")
			fmt.Fprint(w, "data: {\"id\":\"c2\",\"object\":\"chat.completion.chunk\",\"model\":\"fake-1\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n")
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if n == 1 {
		fmt.Fprintf(w, `{"id":"c1","object":"chat.completion","model":"fake-1","choices":[{"index":0,`+
			`"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_a","type":"function",`+
			`"function":{"name":"service_status","arguments":%s}}]},"finish_reason":"tool_calls"}],`+
			`"usage":{"prompt_tokens":50,"completion_tokens":9,"total_tokens":59}}`, args)
		return
	}
	fmt.Fprint(w, `{"id":"c2","object":"chat.completion","model":"fake-1","choices":[{"index":0,`+
		`"message":{"role":"assistant","content":"I could not check."},"finish_reason":"stop"}],`+
		`"usage":{"prompt_tokens":80,"completion_tokens":5,"total_tokens":85}}`)
}

// The library face: with and without streaming, the refused call is served to the model as a
// refusal, the record encodes, and the model's text is on record byte for byte.
func TestBadToolArgsKeepTheRun(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprintf("stream=%v", stream), func(t *testing.T) {
			srv := httptest.NewServer(&badArgsChat{})
			defer srv.Close()
			client := openai.New(openai.Options{BaseURL: srv.URL + "/v1", APIKey: "test"})
			ran := false
			status, err := tool.New("service_status", "status of a service", func(ctx context.Context, in struct {
				Service string `json:"service"`
			}) (string, error) {
				ran = true
				return "ok", nil
			})
			if err != nil {
				t.Fatal(err)
			}
			a, err := agent.New(client, agent.WithModel("fake-1"), agent.WithTools(status))
			if err != nil {
				t.Fatal(err)
			}
			tokens := 0
			if stream {
				a.On(string(event.LLMToken), func(event.Event) { tokens++ })
			}
			res, err := a.Run(context.Background(), agent.Input{Message: "Is checkout up?"})
			if err != nil {
				t.Fatal(err)
			}
			if ran {
				t.Error("the tool ran on arguments that are not JSON")
			}
			if stream && tokens == 0 {
				t.Error("the streaming case did not stream")
			}
			b, err := json.Marshal(res.Record)
			if err != nil {
				t.Fatalf("the run's record does not encode: %v", err)
			}
			if want, _ := json.Marshal(badArgsText); !strings.Contains(string(b), string(want)) {
				t.Errorf("the record does not hold the model's text %s", want)
			}
			if !strings.Contains(string(b), "The service_status tool was not run") {
				t.Error("the record does not hold the refusal served to the model")
			}
		})
	}
}

// The CLI face: demo on such a model stores the run (show reads it back), and a demo whose
// run cannot be stored exits non-zero.
func TestDemoBadToolArgs(t *testing.T) {
	clearProviderEnv(t)
	srv := httptest.NewServer(&badArgsChat{})
	defer srv.Close()
	dir := t.TempDir()
	path := filepath.Join(dir, "runs.db")
	live := []string{"demo", "--part", "1", "--provider", "openai", "--model", "fake-1", "--base-url", srv.URL + "/v1"}
	t.Setenv("OPENAI_API_KEY", "test")
	out, errText, code := runCLI(t, "", append(live, "--store", path)...)
	if code != 0 || strings.Contains(errText, "not stored") {
		t.Fatalf("exit %d: %s\n%s", code, errText, out)
	}
	m := regexp.MustCompile(`Stored as run (run-[0-9a-f]{16}) in `).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("the run is not stored:\n%s", out)
	}
	shown, _, code := runCLI(t, "", "show", m[1], "--store", path)
	if code != 0 || !strings.Contains(shown, "service_status") {
		t.Errorf("show of the run (exit %d):\n%s", code, shown)
	}

	// A store that cannot be opened: the transcript prints, the status says the run is lost.
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errText, code = runCLI(t, "", append(live, "--store", filepath.Join(blocker, "runs.db"))...)
	if code != exitNotStored || !strings.Contains(errText, "the run was not stored") {
		t.Errorf("unstorable run: exit %d, want %d; stderr:\n%s\nstdout:\n%s", code, exitNotStored, errText, out)
	}
}
