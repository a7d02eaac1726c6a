package anthropic

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/internal/wiretest"
)

var update = flag.Bool("update", false, "rewrite golden files")

func req() *llm.Request { return wiretest.UserHi("claude-test") }

func newClient(base string) wiretest.Client { return client(base) }

func client(url string) *apiClient {
	return newAPIClient(Options{BaseURL: url, APIKey: "sk-ant-secret-key", Model: "claude-test", Retry: llm.RetryPolicy{Attempts: 1}})
}

func ev(name, data string) string { return "event: " + name + "\ndata: " + data + "\n\n" }

const start = `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-x","content":[],"stop_reason":null,"usage":{"input_tokens":12,"cache_read_input_tokens":3,"cache_creation_input_tokens":0,"output_tokens":1}}}`

func stop(reason string, out int) string {
	return ev("message_delta", fmt.Sprintf(`{"type":"message_delta","delta":{"stop_reason":%q,"stop_sequence":null},"usage":{"output_tokens":%d}}`, reason, out)) +
		ev("message_stop", `{"type":"message_stop"}`)
}

var quirks = []struct{ name, sse string }{
	{"text-ping-usage", ev("message_start", start) +
		ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`) +
		ev("ping", `{"type": "ping"}`) +
		ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hel"}}`) +
		ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"lo"}}`) +
		ev("content_block_stop", `{"type":"content_block_stop","index":0}`) + stop("end_turn", 7)},
	{"input-json-delta", ev("message_start", start) +
		ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"df","input":{}}}`) +
		ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":""}}`) +
		ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"host\": "}}`) +
		ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"\"db1\"}"}}`) +
		ev("content_block_stop", `{"type":"content_block_stop","index":0}`) + stop("tool_use", 20)},
	{"start-input-without-delta", ev("message_start", start) +
		ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"df","input":{"host":"db2"}}}`) +
		ev("content_block_stop", `{"type":"content_block_stop","index":0}`) + stop("tool_use", 20)},
	{"two-parallel-calls-after-text", ev("message_start", start) +
		ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`) +
		ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Checking both."}}`) +
		ev("content_block_stop", `{"type":"content_block_stop","index":0}`) +
		ev("content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_a","name":"df","input":{}}}`) +
		ev("content_block_start", `{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_b","name":"top","input":{}}}`) +
		ev("content_block_delta", `{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"n\":2}"}}`) +
		ev("content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"n\":1}"}}`) +
		stop("tool_use", 30)},
	{"refusal", ev("message_start", start) +
		ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`) +
		ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"I can't"}}`) + stop("refusal", 3)},
	{"max-tokens-truncated-arguments", ev("message_start", start) +
		ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"df","input":{}}}`) +
		ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"host\": \"d"}}`) + stop("max_tokens", 5)},
	{"error-event", ev("message_start", start) + ev("error", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)},
	{"missing-index-and-thinking", ev("message_start", start) +
		ev("content_block_start", `{"type":"content_block_start","content_block":{"type":"thinking","thinking":""}}`) +
		ev("content_block_delta", `{"type":"content_block_delta","delta":{"type":"thinking_delta","thinking":"hmm"}}`) +
		ev("content_block_start", `{"type":"content_block_start","content_block":{"type":"tool_use","id":"toolu_1","name":"df","input":{}}}`) +
		ev("content_block_delta", `{"type":"content_block_delta","delta":{"type":"input_json_delta","partial_json":"{}"}}`) + stop("tool_use", 9)},
	{"cut-before-stop", ev("message_start", start) +
		ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`) +
		ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"par"}}`)},
	// The body ends inside an event (issue 12 item 7): named as a cut, not a bad URL.
	{"cut-mid-frame", ev("message_start", start) +
		ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`) +
		"event: content_block_delta\ndata: " + `{"type":"content_block_delta","index":0,"delta":{"type":"text_d`},
	{"unnamed-events-crlf", strings.ReplaceAll("data: "+start+"\n\n"+
		`data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":"Hi"}}`+"\n\n"+
		`data: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":1}}`+"\n\n"+
		`data: {"type":"message_stop"}`+"\n\n", "\n", "\r\n")},
}

func TestStreamQuirks(t *testing.T) {
	for _, q := range quirks {
		t.Run(q.name, func(t *testing.T) {
			wiretest.StreamGolden(t, q.name, "text/event-stream", q.sse, newClient, req(), *update)
		})
	}
}

func TestExchangeHeadersAndBody(t *testing.T) {
	var sent []byte
	var h http.Header
	var path string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sent, _ = io.ReadAll(r.Body)
		h, path = r.Header.Clone(), r.URL.Path
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, quirks[0].sse)
	}))
	defer srv.Close()
	resp, err := llm.Collect(client(srv.URL+"/v1/").Stream(context.Background(), req()))
	if err != nil {
		t.Fatal(err)
	}
	ex := resp.Exchange
	if path != "/v1/messages" || h.Get("x-api-key") != "sk-ant-secret-key" || h.Get("anthropic-version") != apiVersion {
		t.Errorf("sent %s with %v", path, h)
	}
	if ex.RequestHeader.Get("x-api-key") != "[redacted]" || !bytes.Equal(ex.RequestBody, sent) {
		t.Errorf("record: %v\n%s", ex.RequestHeader, ex.RequestBody)
	}
	var all []byte
	for _, f := range ex.Frames {
		all = append(all, f...)
	}
	if string(all) != quirks[0].sse {
		t.Error("frames do not add up to the stream as received")
	}
	if want := `{"model":"claude-test","max_tokens":4096,"messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}],"stream":true}`; string(sent) != want {
		t.Errorf("body = %s", sent)
	}
}

func TestEncodeGolden(t *testing.T) {
	temp := 0.3
	r := &llm.Request{
		Model:  "claude-x",
		System: []llm.Segment{{Unit: "persona", Text: "You triage."}, {Unit: "clock", Kind: llm.SpanTimeLine, Text: "Now: 2026-01-01T00:00Z"}},
		Messages: []llm.Message{
			{Role: llm.RoleUser, Content: "Why is db1 slow?", Unit: "history/0"},
			{Role: llm.RoleAssistant, Content: "Checking.", Unit: "history/1", ToolCalls: []llm.ToolCall{{ID: "toolu_1", Name: "df", Args: json.RawMessage(`{"host":"db1"}`)}, {ID: "toolu_2", Name: "top", Args: json.RawMessage(`{"n":`), ArgsError: "bad"}}},
			{Role: llm.RoleTool, ToolCallID: "toolu_1", ToolName: "df", Content: "97%", Unit: "history/2"},
			{Role: llm.RoleTool, ToolCallID: "toolu_2", ToolName: "top", Content: "arguments were not JSON", IsError: true, Unit: "history/3"},
			{Role: llm.RoleUser, Content: "Answer now.", Unit: "history/4"},
			{Role: llm.RoleSystem, Content: "Be brief.", Unit: "history/5"},
		},
		Tools:       []llm.ToolSchema{{Name: "df", Description: "Disk.", InputSchema: json.RawMessage(`{"type":"object"}`)}},
		ToolChoice:  llm.ToolChoice{Mode: llm.ToolChoiceRequired},
		Temperature: &temp, MaxTokens: 100, Stop: []string{"END"},
	}
	body, spans, err := newAPIClient(Options{BaseURL: "http://x"}).encode(r, false)
	if err != nil {
		t.Fatal(err)
	}
	wiretest.Golden(t, "encode.golden", append(append(body, '\n'), wiretest.JSON(spans)...), *update)
	wiretest.CheckSpans(t, r, llm.Exchange{RequestBody: body, Spans: spans})
}

func TestToolLessCallWithToolHistory(t *testing.T) {
	r := &llm.Request{Model: "claude-x", Messages: []llm.Message{
		{Role: llm.RoleUser, Content: "Why?"},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "toolu_1", Name: "df", Args: json.RawMessage(`{}`)}, {ID: "toolu_2", Name: "top", Args: json.RawMessage(`{}`)}}},
		{Role: llm.RoleTool, ToolCallID: "toolu_1", ToolName: "df", Content: "not run: step budget spent"},
		{Role: llm.RoleTool, ToolCallID: "toolu_2", ToolName: "top", Content: "not run: step budget spent"},
		{Role: llm.RoleUser, Content: "Answer now from what you have."},
	}}
	body, spans, err := newAPIClient(Options{BaseURL: "http://x"}).encode(r, false)
	if err != nil {
		t.Fatal(err)
	}
	want := `"tools":[{"name":"df","input_schema":{"type":"object"}},{"name":"top","input_schema":{"type":"object"}}],"tool_choice":{"type":"none"}}`
	if !bytes.HasSuffix(body, []byte(want)) {
		t.Errorf("body = %s", body)
	}
	for _, sp := range spans {
		if sp.Kind == llm.SpanToolSchema {
			t.Errorf("placeholder tool recorded as a unit: %+v", sp)
		}
	}
	// A plain conversation gets no placeholders.
	plain, _, _ := newAPIClient(Options{BaseURL: "http://x"}).encode(req(), false)
	if bytes.Contains(plain, []byte(`"tools"`)) {
		t.Errorf("plain body = %s", plain)
	}
}

func TestSpansProperty(t *testing.T) {
	c := newAPIClient(Options{BaseURL: "http://x"})
	wiretest.SpansProperty(t, 5, 6, func(r *llm.Request) ([]byte, []llm.Span, error) { return c.encode(r, true) })
}

func TestErrors(t *testing.T) {
	tests := []struct {
		status int
		body   string
		kind   llm.ErrorKind
		says   string
	}{
		{401, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`, llm.KindAuth, "set a valid key in ANTHROPIC_API_KEY"},
		{403, `{"type":"error","error":{"type":"permission_error","message":"no access"}}`, llm.KindAuth, "lacks permission"},
		{429, `{"type":"error","error":{"type":"rate_limit_error","message":"slow"}}`, llm.KindRateLimit, "throttling"},
		{400, `{"type":"error","error":{"type":"invalid_request_error","message":"Your credit balance is too low to access the Anthropic API."}}`, llm.KindRateLimit, "retrying will not help"},
		{400, `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}`, llm.KindContextOverflow, "context window"},
		{404, `{"type":"error","error":{"type":"not_found_error","message":"model: claude-9"}}`, llm.KindModelMissing, `model "claude-test" is not available`},
		{529, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, llm.KindServer, "failed on its side"},
		{400, `{"type":"error","error":{"type":"invalid_request_error","message":"messages: roles must alternate"}}`, llm.KindBadRequest, "roles must alternate"},
	}
	for _, tt := range tests {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(tt.status)
			_, _ = io.WriteString(w, tt.body)
		}))
		_, err := client(srv.URL).Complete(context.Background(), req())
		srv.Close()
		var le *llm.Error
		if !errors.As(err, &le) || le.Kind != tt.kind || !strings.Contains(le.Message, tt.says) || strings.Contains(le.Error(), "sk-ant-secret") {
			t.Errorf("%d %s: got %v", tt.status, tt.body, err)
		}
	}
}

func TestDiagnose(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("x-api-key") != "k" {
			w.WriteHeader(401)
			_, _ = io.WriteString(w, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`)
			return
		}
		if r.URL.Path == "/v1/models/claude-ok" {
			_, _ = io.WriteString(w, `{"id":"claude-ok","type":"model"}`)
			return
		}
		w.WriteHeader(404)
		_, _ = io.WriteString(w, `{"type":"error","error":{"type":"not_found_error","message":"model: x"}}`)
	}))
	defer srv.Close()
	got := newAPIClient(Options{BaseURL: srv.URL, APIKey: "k", Model: "claude-ok"}).Diagnose(context.Background())
	want := []llm.Diagnosis{{Check: "key", OK: true, Message: "an API key is set"}, {Check: "server", OK: true, Message: "the server at " + srv.URL + " answers"}, {Check: "model", OK: true, Message: `model "claude-ok" is available`}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
	got = newAPIClient(Options{BaseURL: srv.URL, APIKey: "k", Model: "claude-9"}).Diagnose(context.Background())
	if got[2].OK || !strings.Contains(got[2].Message, `model "claude-9" is not available`) {
		t.Errorf("missing model: %+v", got)
	}
	got = newAPIClient(Options{BaseURL: srv.URL, APIKey: "bad", Model: "claude-ok"}).Diagnose(context.Background())
	if got[1].OK || !strings.Contains(got[1].Message, "the API key was rejected") {
		t.Errorf("bad key: %+v", got)
	}
	t.Setenv(keyEnv, "")
	got = newAPIClient(Options{BaseURL: srv.URL, Model: "claude-ok"}).Diagnose(context.Background())
	if got[0].OK || !strings.Contains(got[0].Message, "set ANTHROPIC_API_KEY") {
		t.Errorf("no key: %+v", got)
	}
}

func FuzzAccumulator(f *testing.F) {
	for _, q := range quirks {
		f.Add([]byte(q.sse))
	}
	f.Fuzz(func(t *testing.T, stream []byte) {
		a := &accumulator{}
		for _, frame := range bytes.Split(stream, []byte("\n\n")) {
			name := ""
			if i := bytes.Index(frame, []byte("data: ")); i >= 0 {
				frame = frame[i+6:]
			}
			_, _ = a.feed(name, frame)
		}
		resp := a.result(func() string { return "id" })
		for _, tc := range resp.ToolCalls {
			if tc.ArgsError == "" && (!json.Valid(tc.Args) || tc.Args[0] != '{') {
				t.Fatalf("args %q accepted as an object", tc.Args)
			}
		}
	})
}

func BenchmarkDecodeStream1000(b *testing.B) {
	var s strings.Builder
	s.WriteString(ev("message_start", start))
	s.WriteString(ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`))
	for i := range 1000 {
		s.WriteString(ev("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"word%d "}}`, i)))
	}
	s.WriteString(ev("content_block_stop", `{"type":"content_block_stop","index":0}`))
	s.WriteString(stop("end_turn", 1000))
	data := []byte(s.String())
	c := newAPIClient(Options{BaseURL: "http://x", Model: "m"})
	wiretest.BenchDecode(b, data, func(body io.Reader) (*llm.Response, error) {
		resp := &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(body)}
		var ex llm.Exchange
		return c.readStream(resp, &ex, c.sender.Profile, func(string) bool { return true })
	})
}

// BenchmarkEncodeLongConversation encodes the request of a model call deep
// in a turn: 200 history messages of about 500 bytes, each a unit, and a
// tool. The body and its spans are sized up front (wire.StartBody).
func BenchmarkEncodeLongConversation(b *testing.B) {
	req := &llm.Request{Model: "m", System: []llm.Segment{{Unit: "system", Text: "You triage incidents."}},
		Tools: []llm.ToolSchema{{Name: "df", Description: "Disk usage.", InputSchema: json.RawMessage(`{"type":"object","properties":{"host":{"type":"string"}}}`)}}}
	for i := range 200 {
		role := llm.RoleUser
		if i%2 == 1 {
			role = llm.RoleAssistant
		}
		req.Messages = append(req.Messages, llm.Message{Role: role, Unit: fmt.Sprintf("history/%d", i), Content: strings.Repeat("disk at 91% on host-7; ", 22)})
	}
	c := newAPIClient(Options{BaseURL: "http://x"})
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := c.encode(req, false); err != nil {
			b.Fatal(err)
		}
	}
}
