package ollama

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/internal/wiretest"
)

var update = flag.Bool("update", false, "rewrite golden files")

func req() *llm.Request { return wiretest.UserHi("qwen3:0.6b") }

func newClient(base string) wiretest.Client { return client(base) }

func client(url string) *apiClient {
	return newAPIClient(Options{BaseURL: url, Model: "qwen3:0.6b", Retry: llm.RetryPolicy{Attempts: 1}})
}

func ndServer(t *testing.T, body string) *httptest.Server {
	return wiretest.BodyServer(t, "application/x-ndjson", body)
}

const doneLine = `{"model":"qwen3:0.6b","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":21,"eval_count":7}` + "\n"

func msg(content string) string {
	b, _ := json.Marshal(content)
	return `{"model":"qwen3:0.6b","message":{"role":"assistant","content":` + string(b) + `},"done":false}` + "\n"
}

var quirks = []struct{ name, nd string }{
	{"text-and-counts", msg("Hel") + msg("lo") + doneLine},
	{"tool-call-object-args-no-id", `{"model":"m","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"df","arguments":{"host":"db1"}}}]},"done":false}` + "\n" + doneLine},
	{"two-parallel-calls-one-frame", `{"model":"m","message":{"role":"assistant","content":"","tool_calls":[{"id":"call_x","function":{"index":0,"name":"df","arguments":{"host":"a"}}},{"function":{"index":1,"name":"df","arguments":{"host":"b"}}}]},"done":false}` + "\n" + doneLine},
	{"arguments-as-string-and-invalid", `{"model":"m","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"a","arguments":"{\"k\":1}"}},{"function":{"name":"b","arguments":"{\"k\":"}},{"function":{"name":"c","arguments":[1]}},{"function":{"name":"d"}}]},"done":false}` + "\n" + doneLine},
	{"error-line", msg("par") + `{"error":"model runner has unexpectedly stopped"}` + "\n"},
	{"cut-before-done", msg("par")},
	{"crlf-and-blank-lines", strings.ReplaceAll(msg("a")+"\n"+msg("b")+doneLine, "\n", "\r\n")},
	{"length-no-counts", msg("long") + `{"model":"m","message":{"role":"assistant","content":""},"done":true,"done_reason":"length"}` + "\n"},
	{"not-json", "<html>proxy</html>\n"},
	// The body ends inside a line (issue 12 item 7): named as a cut, not a bad URL.
	{"cut-mid-line", msg("Hel") + `{"model":"m","message":{"role":"assi`},
}

func TestStreamQuirks(t *testing.T) {
	for _, q := range quirks {
		t.Run(q.name, func(t *testing.T) {
			wiretest.StreamGolden(t, q.name, "application/x-ndjson", q.nd, newClient, req(), *update)
		})
	}
}

func TestIDsAreStablePerClient(t *testing.T) {
	srv := ndServer(t, quirks[1].nd)
	c := client(srv.URL)
	var ids []string
	for range 2 {
		resp, err := llm.Collect(c.Stream(context.Background(), req()))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, resp.ToolCalls[0].ID)
	}
	if diff := cmp.Diff([]string{"ollama-call-1", "ollama-call-2"}, ids); diff != "" {
		t.Error(diff)
	}
}

func TestCompleteAndExchange(t *testing.T) {
	var sent []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sent, _ = io.ReadAll(r.Body)
		_, _ = io.WriteString(w, `{"model":"qwen3:0.6b","message":{"role":"assistant","content":"ok"},"done":true,"done_reason":"stop","prompt_eval_count":3,"eval_count":1}`)
	}))
	defer srv.Close()
	resp, err := client(srv.URL).Complete(context.Background(), req())
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != "ok" || resp.Usage != (llm.Usage{Input: 3, Output: 1, Reported: true}) || !bytes.Equal(resp.Exchange.RequestBody, sent) {
		t.Errorf("resp = %+v", resp)
	}
	if want := `{"model":"qwen3:0.6b","messages":[{"role":"user","content":"hi"}],"stream":false}`; string(sent) != want {
		t.Errorf("body = %s", sent)
	}
}

func TestEncodeGolden(t *testing.T) {
	temp, seed := 0.0, int64(7)
	r := &llm.Request{
		Model:  "llama3.2",
		System: []llm.Segment{{Unit: "persona", Text: "You triage."}},
		Messages: []llm.Message{
			{Role: llm.RoleUser, Content: "Why is db1 slow?", Unit: "history/0"},
			{Role: llm.RoleAssistant, Unit: "history/1", ToolCalls: []llm.ToolCall{{ID: "ollama-call-1", Name: "df", Args: json.RawMessage(`{"host":"db1"}`)}}},
			{Role: llm.RoleTool, ToolCallID: "ollama-call-1", ToolName: "df", Content: "97%", Unit: "history/2"},
		},
		Tools:       []llm.ToolSchema{{Name: "df", Description: "Disk.", InputSchema: json.RawMessage(`{"type":"object"}`)}},
		Temperature: &temp, MaxTokens: 50, Stop: []string{"END"}, Seed: &seed,
	}
	c := newAPIClient(Options{BaseURL: "http://x", KeepAlive: "5m"})
	body, spans, err := c.encode(r, true)
	if err != nil {
		t.Fatal(err)
	}
	wiretest.Golden(t, "encode.golden", append(append(body, '\n'), wiretest.JSON(spans)...), *update)
	wiretest.CheckSpans(t, r, llm.Exchange{RequestBody: body, Spans: spans})
	r.ToolChoice = llm.ToolChoice{Mode: llm.ToolChoiceNone}
	body, _, _ = c.encode(r, true)
	if bytes.Contains(body, []byte(`"tools"`)) {
		t.Error("tool choice none still sent tools")
	}
}

func TestSpansProperty(t *testing.T) {
	c := newAPIClient(Options{BaseURL: "http://x"})
	wiretest.SpansProperty(t, 7, 8, func(r *llm.Request) ([]byte, []llm.Span, error) { return c.encode(r, true) })
}

func TestErrors(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(404)
		_, _ = io.WriteString(w, `{"error":"model \"qwen3:0.6b\" not found, try pulling it first"}`)
	}))
	defer srv.Close()
	_, err := client(srv.URL).Complete(context.Background(), req())
	var le *llm.Error
	if !errors.As(err, &le) || le.Kind != llm.KindModelMissing || !strings.Contains(le.Message, "`ollama pull qwen3:0.6b`") {
		t.Errorf("model missing: %v", err)
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	_, err = client("http://"+addr).Complete(context.Background(), req())
	if !errors.As(err, &le) || le.Kind != llm.KindUnreachable || !strings.Contains(le.Message, "`ollama serve`") {
		t.Errorf("unreachable: %v", err)
	}
}

func TestHostURL(t *testing.T) {
	for in, want := range map[string]string{
		"":                    "",
		"0.0.0.0":             "http://127.0.0.1:11434",
		"0.0.0.0:8080":        "http://127.0.0.1:8080",
		"example.test":        "http://example.test:11434",
		"https://ollama.test": "https://ollama.test:11434",
		"http://10.1.2.3:99/": "http://10.1.2.3:99",
	} {
		if got := hostURL(in); got != want {
			t.Errorf("hostURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDiagnose(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"models":[{"name":"llama3.2:latest","model":"llama3.2:latest"}]}`)
	}))
	defer srv.Close()
	got := newAPIClient(Options{BaseURL: srv.URL, Model: "llama3.2"}).Diagnose(context.Background())
	want := []llm.Diagnosis{{Check: "key", OK: true, Message: "Ollama needs no API key"}, {Check: "server", OK: true, Message: "Ollama answers at " + srv.URL}, {Check: "model", OK: true, Message: `model "llama3.2" is pulled`}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
	got = newAPIClient(Options{BaseURL: srv.URL, Model: "qwen3"}).Diagnose(context.Background())
	if got[2].OK || !strings.Contains(got[2].Message, "`ollama pull qwen3`") {
		t.Errorf("not pulled: %+v", got[2])
	}
}

func FuzzAccumulator(f *testing.F) {
	for _, q := range quirks {
		f.Add([]byte(q.nd))
	}
	f.Fuzz(func(t *testing.T, stream []byte) {
		n := 0
		a := &accumulator{ids: func() string { n++; return fmt.Sprint("id", n) }}
		for _, line := range bytes.Split(stream, []byte("\n")) {
			_, _ = a.feed(line)
		}
		for _, tc := range a.result().ToolCalls {
			if tc.ID == "" || (tc.ArgsError == "" && (!json.Valid(tc.Args) || tc.Args[0] != '{')) {
				t.Fatalf("bad call %+v", tc)
			}
		}
	})
}

func BenchmarkDecodeStream1000(b *testing.B) {
	var s strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&s, `{"model":"qwen3:0.6b","created_at":"2025-08-20T13:48:24.316155Z","message":{"role":"assistant","content":"word%d "},"done":false}`+"\n", i)
	}
	s.WriteString(`{"model":"qwen3:0.6b","created_at":"2025-08-20T13:48:24.316155Z","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":10,"eval_count":1000}` + "\n")
	data := []byte(s.String())
	c := newAPIClient(Options{BaseURL: "http://x", Model: "m"})
	wiretest.BenchDecode(b, data, func(body io.Reader) (*llm.Response, error) {
		var ex llm.Exchange
		return c.readStream(body, &ex, c.sender.Profile, func(string) bool { return true })
	})
}
