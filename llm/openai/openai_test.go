package openai

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/internal/wiretest"
)

var update = flag.Bool("update", false, "rewrite golden files")

func req() *llm.Request { return wiretest.UserHi("gpt-test") }

// sseServer answers every request with body as an SSE stream.
func sseServer(t *testing.T, body string) *httptest.Server {
	return wiretest.BodyServer(t, "text/event-stream", body)
}

func newClient(base string) wiretest.Client { return client(base) }

func client(url string) *apiClient {
	return newAPIClient(Options{BaseURL: url, APIKey: "sk-test-secret-key", Model: "gpt-test", Retry: llm.RetryPolicy{Attempts: 1}})
}

const head = `{"id":"c1","model":"m","choices":[{"index":0,"delta":`

// One golden file per stream quirk an OpenAI-compatible server is known for.
var quirks = []struct{ name, sse string }{
	{"text-and-usage", "data: " + head + `{"role":"assistant","content":""},"finish_reason":null}]}` + "\n\n" +
		"data: " + head + `{"content":"Hel"},"finish_reason":null}]}` + "\n\n" +
		"data: " + head + `{"content":"lo"},"finish_reason":"stop"}]}` + "\n\n" +
		`data: {"id":"c1","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":2,"prompt_tokens_details":{"cached_tokens":1}}}` + "\n\n" +
		"data: [DONE]\n\n"},
	{"whole-call-in-one-delta", "data: " + head + `{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"df","arguments":"{\"host\":\"db1\"}"}}]},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n"},
	{"finish-reason-own-chunk", "data: " + head + `{"tool_calls":[{"index":0,"id":"call_a","function":{"name":"df","arguments":""}}]},"finish_reason":null}]}` + "\n\n" +
		"data: " + head + `{"tool_calls":[{"index":0,"function":{"arguments":"{\"h\":"}}]},"finish_reason":null}]}` + "\n\n" +
		"data: " + head + `{"tool_calls":[{"index":0,"function":{"arguments":"1}"}}]},"finish_reason":null}]}` + "\n\n" +
		"data: " + head + `{},"finish_reason":"tool_calls"}]}` + "\n\n" + "data: [DONE]\n\n"},
	{"id-only-on-first-delta-and-new-id-same-index", "data: " + head + `{"tool_calls":[{"index":0,"id":"call_a","function":{"name":"a","arguments":"{}"}}]},"finish_reason":null}]}` + "\n\n" +
		"data: " + head + `{"tool_calls":[{"index":0,"id":"","function":{"arguments":""}}]},"finish_reason":null}]}` + "\n\n" +
		"data: " + head + `{"tool_calls":[{"index":0,"id":"call_b","function":{"name":"b","arguments":"{\"x\":2}"}}]},"finish_reason":"tool_calls"}]}` + "\n\n" + "data: [DONE]\n\n"},
	{"several-calls-in-one-chunk", "data: " + head + `{"tool_calls":[{"index":0,"id":"call_a","function":{"name":"a","arguments":"{\"n\":1}"}},{"index":1,"id":"call_b","function":{"name":"b","arguments":"{\"n\":2}"}}]},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n"},
	{"no-usage", "data: " + head + `{"content":"ok"},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n"},
	{"empty-and-truncated-arguments", "data: " + head + `{"tool_calls":[{"index":0,"id":"call_a","function":{"name":"noargs","arguments":""}},{"index":1,"id":"call_b","function":{"name":"cut","arguments":"{\"q\":\"unfini"}}]},"finish_reason":"length"}]}` + "\n\ndata: [DONE]\n\n"},
	{"missing-index-comments-crlf-multiline", ": keep-alive\r\nevent: chunk\r\ndata: " + head + `{"tool_calls":[{"id":"call_a","function":{"name":"a","arguments":"{\"k\":"}}]},"finish_reason":null}]}` + "\r\n\r\n" +
		"data: " + head + "\ndata: " + `{"tool_calls":[{"function":{"arguments":"1}"}}]},"finish_reason":null}]}` + "\r\n\r\n" +
		"data: " + head + `{"tool_calls":[{"id":"call_b","function":{"name":"b","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}` + "\r\n\r\n" + "data: [DONE]\r\n\r\n"},
	{"arguments-as-object", "data: " + head + `{"tool_calls":[{"index":0,"id":"call_a","function":{"name":"a","arguments":{"k":true}}}]},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n"},
	{"no-ids-at-all", "data: " + head + `{"tool_calls":[{"index":0,"function":{"name":"a","arguments":"{}"}}]},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n"},
	{"refusal", "data: " + head + `{"refusal":"I can't help with that."},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n"},
	{"error-frame", "data: " + head + `{"content":"par"},"finish_reason":null}]}` + "\n\n" + `data: {"error":{"message":"The server had an error","type":"server_error"}}` + "\n\n"},
	{"cut-before-finish", "data: " + head + `{"content":"par"},"finish_reason":null}]}` + "\n\n"},
	{"not-json-frame", "data: <html>oops</html>\n\n"},
	// The body ends inside the second event (issue 12 item 7): named as a cut, not a bad URL.
	{"cut-mid-frame", "data: " + head + `{"content":"par"},"finish_reason":null}]}` + "\n\n" + "data: " + head + `{"content":"ti`},
	{"finish-without-done", "data: " + head + `{"content":"ok"},"finish_reason":"stop"}]}` + "\n\n"},
}

func TestStreamQuirks(t *testing.T) {
	for _, q := range quirks {
		t.Run(q.name, func(t *testing.T) {
			wiretest.StreamGolden(t, q.name, "text/event-stream", q.sse, newClient, req(), *update)
		})
	}
}

func TestStreamExchangeKeepsFramesAndRedactsKey(t *testing.T) {
	var gotBody []byte
	var gotAuth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotBody, _ = io.ReadAll(r.Body)
		gotAuth = r.Header.Get("Authorization")
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, quirks[0].sse)
	}))
	defer srv.Close()
	resp, err := llm.Collect(client(srv.URL).Stream(context.Background(), req()))
	if err != nil {
		t.Fatal(err)
	}
	ex := resp.Exchange
	if string(ex.RequestBody) != string(gotBody) {
		t.Errorf("recorded body differs from the bytes sent:\n%s\n%s", ex.RequestBody, gotBody)
	}
	if gotAuth != "Bearer sk-test-secret-key" || ex.RequestHeader.Get("Authorization") != "[redacted]" {
		t.Errorf("auth sent %q, recorded %q", gotAuth, ex.RequestHeader.Get("Authorization"))
	}
	if ex.Endpoint != srv.URL+"/chat/completions" || ex.Status != 200 || ex.Attempts != 1 {
		t.Errorf("exchange = %s %d %d", ex.Endpoint, ex.Status, ex.Attempts)
	}
	if joined := string(joinFrames(ex.Frames)); joined != quirks[0].sse {
		t.Errorf("frames do not add up to the stream as received:\n%q", joined)
	}
	want := `{"model":"gpt-test","messages":[{"role":"user","content":"hi"}],"stream":true,"stream_options":{"include_usage":true}}`
	if string(gotBody) != want {
		t.Errorf("body = %s", gotBody)
	}
}

func joinFrames(fs [][]byte) []byte {
	var out []byte
	for _, f := range fs {
		out = append(out, f...)
	}
	return out
}

func TestEncodeGolden(t *testing.T) {
	temp, seed := 0.0, int64(42)
	r := &llm.Request{
		Model:  "gpt-4o",
		System: []llm.Segment{{Unit: "persona", Text: "You are terse."}, {Unit: "facts", Text: "Disk \"db1\" is at 97%."}},
		Messages: []llm.Message{
			{Role: llm.RoleUser, Content: "Why is db1 slow?", Unit: "history/0"},
			{Role: llm.RoleAssistant, Unit: "history/1", ToolCalls: []llm.ToolCall{{ID: "call_1", Name: "df", Args: json.RawMessage(`{"host":"db1"}`)}, {ID: "call_2", Name: "calc", Args: json.RawMessage(`15 * 4`), ArgsError: "arguments are not valid JSON"}}},
			{Role: llm.RoleTool, ToolCallID: "call_1", ToolName: "df", Content: `{"used":0.97}`, Unit: "history/2"},
			{Role: llm.RoleTool, ToolCallID: "call_2", ToolName: "calc", Content: "invalid arguments", IsError: true, Unit: "history/3"},
		},
		Tools:       []llm.ToolSchema{{Name: "df", Description: "Disk usage.", InputSchema: json.RawMessage(`{"type":"object","properties":{"host":{"type":"string"}}}`)}, {Name: "calc"}},
		ToolChoice:  llm.ToolChoice{Mode: llm.ToolChoiceTool, Name: "df"},
		Temperature: &temp, MaxTokens: 64, Stop: []string{"\n\n"}, Seed: &seed,
	}
	c := newAPIClient(Options{BaseURL: "http://x", Model: "m"})
	body, spans, err := c.encode(r, true)
	if err != nil {
		t.Fatal(err)
	}
	wiretest.Golden(t, "encode.golden", append(append(body, '\n'), wiretest.JSON(spans)...), *update)
	wiretest.CheckSpans(t, r, llm.Exchange{RequestBody: body, Spans: spans})
	dev := newAPIClient(Options{BaseURL: "http://x", DeveloperRole: true, MaxCompletionTokens: true, OmitStreamUsage: true})
	body2, _, _ := dev.encode(&llm.Request{Model: "o3", System: r.System[:1], MaxTokens: 5}, true)
	if want := `{"model":"o3","messages":[{"role":"developer","content":"You are terse."}],"max_completion_tokens":5,"stream":true}`; string(body2) != want {
		t.Errorf("developer body = %s", body2)
	}
}

func TestSpansProperty(t *testing.T) {
	c := newAPIClient(Options{BaseURL: "http://x"})
	wiretest.SpansProperty(t, 3, 4, func(r *llm.Request) ([]byte, []llm.Span, error) { return c.encode(r, false) })
}

func TestEncodeRefusals(t *testing.T) {
	c := newAPIClient(Options{BaseURL: "http://x"})
	for name, r := range map[string]*llm.Request{
		"role":   {Model: "m", Messages: []llm.Message{{Role: "robot"}}},
		"schema": {Model: "m", Tools: []llm.ToolSchema{{Name: "t", InputSchema: json.RawMessage(`{`)}}},
		"choice": {Model: "m", ToolChoice: llm.ToolChoice{Mode: llm.ToolChoiceTool}},
	} {
		if _, err := c.Complete(context.Background(), r); llm.KindOf(err) != llm.KindBadRequest {
			t.Errorf("%s: err = %v", name, err)
		}
	}
	if _, err := newAPIClient(Options{BaseURL: "http://x"}).Complete(context.Background(), &llm.Request{}); err == nil || !strings.Contains(err.Error(), "no model was named") {
		t.Errorf("missing model: %v", err)
	}
}

func TestErrorHumanisation(t *testing.T) {
	tests := []struct {
		name      string
		status    int
		header    map[string]string
		body      string
		kind      llm.ErrorKind
		retryable bool
		says      string
	}{
		{"bad key", 401, nil, `{"error":{"message":"Incorrect API key provided: sk-abc***********xyz.","type":"invalid_request_error","code":"invalid_api_key"}}`, llm.KindAuth, false, "set a valid key in OPENAI_API_KEY"},
		{"forbidden", 403, nil, `{"error":{"message":"You are not allowed to sample from this model","type":"invalid_request_error"}}`, llm.KindAuth, false, "lacks permission"},
		{"throttled", 429, map[string]string{"Retry-After": "20"}, `{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`, llm.KindRateLimit, true, "retry after 20s"},
		{"quota", 429, nil, `{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}`, llm.KindRateLimit, false, "retrying will not help"},
		{"overflow", 400, nil, `{"error":{"message":"This model's maximum context length is 128000 tokens.","code":"context_length_exceeded"}}`, llm.KindContextOverflow, false, "shorten the history"},
		{"no model", 404, nil, `{"error":{"message":"The model 'gpt-9' does not exist","code":"model_not_found"}}`, llm.KindModelMissing, false, `model "gpt-test" is not available`},
		{"server", 503, nil, `{"error":{"message":"overloaded"}}`, llm.KindServer, true, "failed on its side"},
		{"bad request", 422, nil, `{"detail":"messages: field required"}`, llm.KindBadRequest, false, "messages: field required"},
		{"html proxy", 502, nil, "<html><body>Bad Gateway</body></html>", llm.KindServer, true, "failed on its side"},
		{"html 404", 404, nil, "<!doctype html><title>Not found</title>", llm.KindBadRequest, false, "answered with an HTML page"},
		{"200 error body", 200, nil, `{"error":{"message":"model gpt-9 not found","type":"invalid_request_error"}}`, llm.KindModelMissing, false, "is not available"},
		{"200 html", 200, map[string]string{"Content-Type": "text/html"}, `<html>login</html>`, llm.KindUnknown, false, "answered with an HTML page"},
		{"teapot", 418, nil, ``, llm.KindBadRequest, false, "HTTP 418"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				for k, v := range tt.header {
					w.Header().Set(k, v)
				}
				w.WriteHeader(tt.status)
				_, _ = io.WriteString(w, tt.body)
			}))
			defer srv.Close()
			_, err := client(srv.URL).Complete(context.Background(), req())
			var le *llm.Error
			if !errors.As(err, &le) {
				t.Fatalf("err = %v", err)
			}
			if le.Kind != tt.kind || le.Retryable != tt.retryable || !strings.Contains(le.Message, tt.says) {
				t.Errorf("got %s retry=%v %q", le.Kind, le.Retryable, le.Message)
			}
			if strings.Contains(le.Error(), "sk-abc") || strings.Contains(le.Error(), "sk-test-secret-key") {
				t.Errorf("key leaked: %s", le.Error())
			}
			if ex := le.Exchange; ex == nil || ex.Status != tt.status || string(ex.ResponseBody) != tt.body || len(ex.RequestBody) == 0 {
				t.Errorf("the failed call's exchange was not kept: %+v", ex)
			}
		})
	}
}

func TestRetries(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch n.Add(1) {
		case 1:
			w.WriteHeader(503)
		case 2:
			w.Header().Set("Retry-After", "0.01")
			w.WriteHeader(429)
		default:
			_, _ = io.WriteString(w, `{"id":"x","choices":[{"message":{"content":"ok"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1}}`)
		}
	}))
	defer srv.Close()
	c := newAPIClient(Options{BaseURL: srv.URL, Model: "m", Retry: llm.RetryPolicy{Attempts: 3, BaseDelay: time.Millisecond}})
	resp, err := c.Complete(context.Background(), req())
	if err != nil || resp.Content != "ok" || resp.Exchange.Attempts != 3 {
		t.Fatalf("resp = %+v, %v", resp, err)
	}
	// Never retried: a rejected key.
	n.Store(0)
	auth := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.WriteHeader(401)
	}))
	defer auth.Close()
	c = newAPIClient(Options{BaseURL: auth.URL, Model: "m", APIKey: "k", Retry: llm.RetryPolicy{Attempts: 3, BaseDelay: time.Millisecond}})
	if _, err := c.Complete(context.Background(), req()); llm.KindOf(err) != llm.KindAuth || n.Load() != 1 {
		t.Errorf("auth: %v after %d attempts", err, n.Load())
	}
	// A Retry-After longer than MaxDelay ends the call with the wait.
	long := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "3600")
		w.WriteHeader(429)
	}))
	defer long.Close()
	c = newAPIClient(Options{BaseURL: long.URL, Model: "m", Retry: llm.RetryPolicy{Attempts: 3, MaxDelay: time.Second}})
	_, err = c.Complete(context.Background(), req())
	var le *llm.Error
	if !errors.As(err, &le) || le.RetryAfter != time.Hour || !strings.Contains(le.Message, "retry after 1h0m0s") {
		t.Errorf("long wait: %v", err)
	}
}

func TestUnreachableTimeoutCancel(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, err = client("http://"+addr+"/v1").Complete(context.Background(), req())
	var le *llm.Error
	if !errors.As(err, &le) || le.Kind != llm.KindUnreachable || !le.Resumable || le.Retryable || !strings.Contains(le.Message, "nothing is listening at http://"+addr+"/v1") {
		t.Errorf("unreachable: %#v", err)
	}

	block := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		_, _ = io.WriteString(w, "data: "+head+`{"content":"par"},"finish_reason":null}]}`+"\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-block:
		case <-r.Context().Done():
		}
	}))
	defer slow.Close()
	defer close(block)
	c := newAPIClient(Options{BaseURL: slow.URL, Model: "m", Timeout: 100 * time.Millisecond, Retry: llm.RetryPolicy{Attempts: 1}})
	got := wiretest.Drain(t, c.Stream(context.Background(), req()))
	if got.ErrorKind != llm.KindTimeout || !strings.Contains(got.Error, "openai.Options.Timeout") {
		t.Errorf("stream timeout: %+v", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c = newAPIClient(Options{BaseURL: slow.URL, Model: "m", Retry: llm.RetryPolicy{Attempts: 1}})
	var kinds []llm.EventKind
	var last error
	for ev, err := range c.Stream(ctx, req()) {
		if err != nil {
			last = err
			break
		}
		kinds = append(kinds, ev.Kind)
		cancel()
	}
	if llm.KindOf(last) != llm.KindCanceled || len(kinds) != 1 {
		t.Errorf("cancel mid-stream: %v after %v", last, kinds)
	}
}

func TestStreamErrorKeepsFrames(t *testing.T) {
	srv := sseServer(t, quirks[11].sse) // error-frame
	_, err := llm.Collect(client(srv.URL).Stream(context.Background(), req()))
	var le *llm.Error
	if !errors.As(err, &le) || le.Exchange == nil || len(le.Exchange.Frames) != 2 || le.Exchange.Status != 200 {
		t.Fatalf("err = %v, exchange %+v", err, le.Exchange)
	}
}

func TestStreamStopsWhenConsumerStops(t *testing.T) {
	srv := sseServer(t, quirks[0].sse)
	n := 0
	for range client(srv.URL).Stream(context.Background(), req()) {
		n++
		break
	}
	if n != 1 {
		t.Errorf("got %d events", n)
	}
}

func TestStreamAnsweredWithPlainJSON(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"x","choices":[{"message":{"content":"whole"},"finish_reason":"stop"}]}`)
	}))
	defer srv.Close()
	got := wiretest.Drain(t, client(srv.URL).Stream(context.Background(), req()))
	if got.Content != "whole" || got.StopReason != llm.StopEnd || got.Usage.Reported {
		t.Errorf("got %+v", got)
	}
}

func TestDiagnose(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/models" {
			http.NotFound(w, r)
			return
		}
		_, _ = io.WriteString(w, `{"data":[{"id":"gpt-test"},{"id":"other"}]}`)
	}))
	defer srv.Close()
	got := newAPIClient(Options{BaseURL: srv.URL + "/v1", Model: "gpt-test", APIKey: "k"}).Diagnose(context.Background())
	want := []llm.Diagnosis{
		{Check: "key", OK: true, Message: "an API key is set"},
		{Check: "server", OK: true, Message: "the server at " + srv.URL + "/v1 answers"},
		{Check: "model", OK: true, Message: `model "gpt-test" is available`},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
	got = newAPIClient(Options{BaseURL: srv.URL + "/v1", Model: "gpt-9", APIKey: "k"}).Diagnose(context.Background())
	if got[2].OK || !strings.Contains(got[2].Message, `model "gpt-9" is not listed`) {
		t.Errorf("missing model: %+v", got[2])
	}
	t.Setenv(keyEnv, "")
	got = newAPIClient(Options{BaseURL: "https://api.openai.com/v1", Model: "m", HTTPClient: &http.Client{Transport: refuse{}}}).Diagnose(context.Background())
	if got[0].OK || !strings.Contains(got[0].Message, "set OPENAI_API_KEY") {
		t.Errorf("missing key: %+v", got[0])
	}
	if got[1].OK || !strings.Contains(got[1].Message, "nothing is listening") {
		t.Errorf("unreachable: %+v", got[1])
	}
}

// refuse is a transport that fails every dial, so no test touches the network.
type refuse struct{}

func (refuse) RoundTrip(*http.Request) (*http.Response, error) {
	return nil, &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}
}

// A failure before the stream starts is retried; the record counts attempts.
func TestStreamRetriedBeforeFirstByte(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, quirks[0].sse)
	}))
	defer srv.Close()
	c := newAPIClient(Options{BaseURL: srv.URL, Model: "m", Retry: llm.RetryPolicy{Attempts: 2, BaseDelay: time.Millisecond}})
	resp, err := llm.Collect(c.Stream(context.Background(), req()))
	if err != nil || resp.Content != "Hello" || resp.Exchange.Attempts != 2 || n.Load() != 2 {
		t.Fatalf("resp = %+v, err %v, server saw %d", resp, err, n.Load())
	}
}

// TestReasoningTokens checks that completion_tokens_details.reasoning_tokens
// (sent by OpenAI's reasoning models) reaches Usage.Reasoning, with the reply's
// id and model, streamed or whole.
func TestReasoningTokens(t *testing.T) {
	usage := `"usage":{"prompt_tokens":12,"completion_tokens":40,"completion_tokens_details":{"reasoning_tokens":32}}`
	for name, tc := range map[string]struct{ ctype, body string }{
		"stream": {"text/event-stream", "data: {\"id\":\"chatcmpl-9\",\"model\":\"o4-mini-2025\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ok\"},\"finish_reason\":\"stop\"}]}\n\n" +
			`data: {"id":"chatcmpl-9","choices":[],` + usage + "}\n\ndata: [DONE]\n\n"},
		"whole": {"application/json", `{"id":"chatcmpl-9","model":"o4-mini-2025","choices":[{"message":{"content":"ok"},"finish_reason":"stop"}],` + usage + `}`},
	} {
		t.Run(name, func(t *testing.T) {
			got := wiretest.Drain(t, client(wiretest.BodyServer(t, tc.ctype, tc.body).URL).Stream(context.Background(), req()))
			want := llm.Usage{Input: 12, Output: 40, Reasoning: 32, Reported: true}
			if got.Usage == nil || *got.Usage != want || got.ProviderRef != "chatcmpl-9" || got.Model != "o4-mini-2025" {
				t.Errorf("usage %+v, id %q, model %q; want %+v, chatcmpl-9, o4-mini-2025", got.Usage, got.ProviderRef, got.Model, want)
			}
		})
	}
}
