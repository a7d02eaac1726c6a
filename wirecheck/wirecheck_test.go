package wirecheck

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/go-cmp/cmp"
	"github.com/ollama/ollama/api"
	"github.com/ollama/ollama/middleware"

	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/anthropic"
	"github.com/agentfootprint/agentfootprint-go/llm/openai"
)

// native is the fake Ollama /api/chat handler. It answers by the last user
// message: "hello" → text, "one tool" → one call, "two tools" → two calls
// in one chunk; a request whose last message is a tool result gets text.
// It records every translated request it received.
type native struct {
	mu   sync.Mutex
	seen []api.ChatRequest
}

func args(kv ...any) api.ToolCallFunctionArguments {
	a := api.NewToolCallFunctionArguments()
	for i := 0; i+1 < len(kv); i += 2 {
		a.Set(kv[i].(string), kv[i+1])
	}
	return a
}

func (n *native) handle(c *gin.Context) {
	var req api.ChatRequest
	if err := json.NewDecoder(c.Request.Body).Decode(&req); err != nil {
		c.JSON(http.StatusBadRequest, gin.H{"error": err.Error()})
		return
	}
	n.mu.Lock()
	n.seen = append(n.seen, req)
	n.mu.Unlock()

	last := req.Messages[len(req.Messages)-1]
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	frame := func(content string, calls []api.ToolCall, done bool) api.ChatResponse {
		r := api.ChatResponse{Model: req.Model, CreatedAt: now, Message: api.Message{Role: "assistant", Content: content, ToolCalls: calls}, Done: done}
		if done {
			r.DoneReason = "stop"
			r.Metrics = api.Metrics{PromptEvalCount: 42, EvalCount: 9}
		}
		return r
	}
	var frames []api.ChatResponse
	switch {
	case last.Role == "tool":
		frames = []api.ChatResponse{frame("The disk ", nil, false), frame("is 97% full.", nil, false), frame("", nil, true)}
	case strings.Contains(last.Content, "two tools"):
		frames = []api.ChatResponse{frame("", []api.ToolCall{
			{ID: "call_df", Function: api.ToolCallFunction{Index: 0, Name: "disk_usage", Arguments: args("host", "db1")}},
			{ID: "call_top", Function: api.ToolCallFunction{Index: 1, Name: "top_processes", Arguments: args("host", "db1", "limit", 3)}},
		}, false), frame("", nil, true)}
	case strings.Contains(last.Content, "one tool"):
		frames = []api.ChatResponse{frame("", []api.ToolCall{
			{ID: "call_df", Function: api.ToolCallFunction{Index: 0, Name: "disk_usage", Arguments: args("host", "db1")}},
		}, false), frame("", nil, true)}
	default:
		frames = []api.ChatResponse{frame("Hello", nil, false), frame(", ", nil, false), frame("world.", nil, false), frame("", nil, true)}
	}
	if req.Stream != nil && !*req.Stream {
		// One whole reply: merge the frames.
		whole := frame("", nil, true)
		for _, f := range frames {
			whole.Message.Content += f.Message.Content
			whole.Message.ToolCalls = append(whole.Message.ToolCalls, f.Message.ToolCalls...)
		}
		b, _ := json.Marshal(whole)
		c.Status(http.StatusOK)
		_, _ = c.Writer.Write(b)
		return
	}
	c.Status(http.StatusOK)
	for _, f := range frames {
		b, _ := json.Marshal(f)
		if _, err := c.Writer.Write(b); err != nil {
			return
		}
		c.Writer.Flush()
	}
}

func server(t *testing.T) (*httptest.Server, *native) {
	gin.SetMode(gin.TestMode)
	n := &native{}
	r := gin.New()
	r.POST("/v1/chat/completions", middleware.ChatMiddleware(), n.handle)
	r.POST("/v1/messages", middleware.AnthropicMessagesMiddleware(), n.handle)
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	return srv, n
}

var schema = json.RawMessage(`{"type":"object","properties":{"host":{"type":"string"},"limit":{"type":"integer"}},"required":["host"]}`)

func request(user string) *llm.Request {
	temp, seed := 0.0, int64(3)
	return &llm.Request{
		Model:  "qwen3:0.6b",
		System: []llm.Segment{{Unit: "persona", Text: "You triage \"ops\" alerts."}, {Unit: "clock", Kind: llm.SpanTimeLine, Text: "Now: 2026-01-01T00:00:00Z"}},
		Messages: []llm.Message{
			{Role: llm.RoleUser, Content: user, Unit: "history/0"},
		},
		Tools: []llm.ToolSchema{
			{Name: "disk_usage", Description: "Disk usage of a host.", InputSchema: schema},
			{Name: "top_processes", Description: "Busiest processes.", InputSchema: schema},
		},
		Temperature: &temp, MaxTokens: 256, Stop: []string{"END"}, Seed: &seed,
	}
}

// followUp appends the assistant's calls and one result per call, as the
// agent does, so the middleware must accept tool messages we encode.
func followUp(r *llm.Request, resp *llm.Response) *llm.Request {
	next := r.Clone()
	next.Messages = append(next.Messages, llm.Message{Role: llm.RoleAssistant, Content: resp.Content, ToolCalls: resp.ToolCalls, Unit: "history/1"})
	for i, tc := range resp.ToolCalls {
		next.Messages = append(next.Messages, llm.Message{Role: llm.RoleTool, ToolCallID: tc.ID, ToolName: tc.Name, Content: `{"used":0.97}`, Unit: "history/" + string(rune('2'+i))})
	}
	return next
}

type result struct {
	Content string
	Calls   []string // name + args
	IDs     bool     // every call has an id
	Stop    llm.StopReason
	Usage   bool
}

func summarize(resp *llm.Response) result {
	r := result{Content: resp.Content, Stop: resp.StopReason, Usage: resp.Usage.Reported, IDs: true}
	for _, tc := range resp.ToolCalls {
		r.Calls = append(r.Calls, tc.Name+string(tc.Args))
		if tc.ID == "" || tc.ArgsError != "" {
			r.IDs = false
		}
	}
	return r
}

func TestMiddlewareRoundTrips(t *testing.T) {
	srv, n := server(t)
	providers := map[string]llm.Provider{
		"openai":    openai.New(openai.Options{BaseURL: srv.URL + "/v1", APIKey: "unused", Retry: llm.RetryPolicy{Attempts: 1}}),
		"anthropic": anthropic.New(anthropic.Options{BaseURL: srv.URL, APIKey: "unused", Retry: llm.RetryPolicy{Attempts: 1}}),
	}
	scenarios := []struct {
		user string
		want result
	}{
		{"say hello", result{Content: "Hello, world.", IDs: true, Stop: llm.StopEnd, Usage: true}},
		{"use one tool", result{Calls: []string{`disk_usage{"host":"db1"}`}, IDs: true, Stop: llm.StopToolUse, Usage: true}},
		{"use two tools", result{Calls: []string{`disk_usage{"host":"db1"}`, `top_processes{"host":"db1","limit":3}`}, IDs: true, Stop: llm.StopToolUse, Usage: true}},
	}
	for name, p := range providers {
		for _, sc := range scenarios {
			for _, stream := range []bool{true, false} {
				label := name + "/" + sc.user
				if stream {
					label += "/stream"
				}
				t.Run(label, func(t *testing.T) {
					ctx := context.Background()
					req := request(sc.user)
					resp, err := call(ctx, p, req, stream)
					if err != nil {
						t.Fatalf("the middleware refused or the client failed: %v", err)
					}
					if diff := cmp.Diff(sc.want, summarize(resp)); diff != "" {
						t.Errorf("decoded reply (-want +got):\n%s", diff)
					}
					if len(resp.ToolCalls) == 0 {
						return
					}
					next := followUp(req, resp)
					resp2, err := call(ctx, p, next, stream)
					if err != nil {
						t.Fatalf("follow-up with tool results refused: %v", err)
					}
					if resp2.Content != "The disk is 97% full." {
						t.Errorf("follow-up content = %q", resp2.Content)
					}
					// What the native side received after translation.
					n.mu.Lock()
					got := n.seen[len(n.seen)-1]
					n.mu.Unlock()
					checkTranslated(t, got, next, resp.ToolCalls)
					checkOptions(t, name, got)
				})
			}
		}
	}
}

func call(ctx context.Context, p llm.Provider, req *llm.Request, stream bool) (*llm.Response, error) {
	if stream {
		return llm.Collect(p.(llm.Streamer).Stream(ctx, req))
	}
	return p.Complete(ctx, req)
}

// checkTranslated asserts the middleware carried our request through: the
// system text, every tool, the assistant's calls with their arguments, and
// one tool message per result naming its call.
func checkTranslated(t *testing.T, got api.ChatRequest, sent *llm.Request, calls []llm.ToolCall) {
	t.Helper()
	var system, toolMsgs []string
	var assistantCalls []string
	for _, m := range got.Messages {
		switch m.Role {
		case "system":
			system = append(system, m.Content)
		case "tool":
			toolMsgs = append(toolMsgs, m.ToolCallID+"|"+m.Content)
		case "assistant":
			for _, tc := range m.ToolCalls {
				b, _ := json.Marshal(tc.Function.Arguments)
				assistantCalls = append(assistantCalls, tc.Function.Name+sorted(b))
			}
		}
	}
	if strings.Join(system, "\n\n") != llm.SystemText(sent.System) {
		t.Errorf("system arrived as %q", system)
	}
	var wantCalls, wantTools []string
	for _, tc := range calls {
		wantCalls = append(wantCalls, tc.Name+sorted(tc.Args))
		wantTools = append(wantTools, tc.ID+`|{"used":0.97}`)
	}
	if diff := cmp.Diff(wantCalls, assistantCalls); diff != "" {
		t.Errorf("assistant calls after translation:\n%s", diff)
	}
	if diff := cmp.Diff(wantTools, toolMsgs); diff != "" {
		t.Errorf("tool results after translation:\n%s", diff)
	}
	if len(got.Tools) != len(sent.Tools) || got.Tools[0].Function.Name != "disk_usage" {
		t.Errorf("tools arrived as %+v", got.Tools)
	}
}

// sorted re-encodes a JSON object with its keys sorted: the Anthropic
// translation passes arguments through a Go map, so key order is not kept.
func sorted(raw []byte) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// checkOptions asserts the sampling settings survived translation.
func checkOptions(t *testing.T, provider string, got api.ChatRequest) {
	t.Helper()
	want := map[string]any{"temperature": 0.0, "num_predict": 256.0, "stop": []any{"END"}}
	if provider == "openai" {
		want["seed"] = 3.0
	}
	b, _ := json.Marshal(got.Options)
	var opts map[string]any
	_ = json.Unmarshal(b, &opts)
	for k, v := range want {
		if !cmp.Equal(opts[k], v) {
			t.Errorf("%s: option %s arrived as %v, want %v (all: %s)", provider, k, opts[k], v, b)
		}
	}
}

// The exact bytes the clients record are the bytes the middleware read.
func TestRecordedBytesAreTheBytesSent(t *testing.T) {
	var mu sync.Mutex
	var bodies [][]byte
	gin.SetMode(gin.TestMode)
	n := &native{}
	r := gin.New()
	capture := func(c *gin.Context) {
		b, _ := io.ReadAll(c.Request.Body)
		mu.Lock()
		bodies = append(bodies, b)
		mu.Unlock()
		c.Request.Body = io.NopCloser(strings.NewReader(string(b)))
	}
	r.POST("/v1/chat/completions", capture, middleware.ChatMiddleware(), n.handle)
	r.POST("/v1/messages", capture, middleware.AnthropicMessagesMiddleware(), n.handle)
	srv := httptest.NewServer(r)
	defer srv.Close()
	for _, p := range []llm.Provider{
		openai.New(openai.Options{BaseURL: srv.URL + "/v1"}),
		anthropic.New(anthropic.Options{BaseURL: srv.URL, APIKey: "unused"}),
	} {
		resp, err := llm.Collect(p.(llm.Streamer).Stream(context.Background(), request("use two tools")))
		if err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		last := bodies[len(bodies)-1]
		mu.Unlock()
		if string(resp.Exchange.RequestBody) != string(last) {
			t.Errorf("%s: recorded body differs from what arrived", p.Name())
		}
		if len(resp.Exchange.Frames) == 0 {
			t.Errorf("%s: no frames recorded", p.Name())
		}
	}
}

// The agent's wrap-up call offers no tools while the history holds calls
// and results; the middleware must accept it from both clients.
func TestToolLessWrapUpAccepted(t *testing.T) {
	srv, n := server(t)
	for _, p := range []llm.Provider{
		openai.New(openai.Options{BaseURL: srv.URL + "/v1", Retry: llm.RetryPolicy{Attempts: 1}}),
		anthropic.New(anthropic.Options{BaseURL: srv.URL, APIKey: "unused", Retry: llm.RetryPolicy{Attempts: 1}}),
	} {
		first := request("use two tools")
		resp, err := p.Complete(context.Background(), first)
		if err != nil {
			t.Fatal(err)
		}
		wrap := followUp(first, resp)
		wrap.Tools = nil
		wrap.Messages = append(wrap.Messages, llm.Message{Role: llm.RoleUser, Content: "No tool can run now; answer from what you have."})
		got, err := p.Complete(context.Background(), wrap)
		if err != nil {
			t.Fatalf("%s: wrap-up refused: %v", p.Name(), err)
		}
		if got.Content != "Hello, world." || len(got.ToolCalls) != 0 {
			t.Errorf("%s: wrap-up reply = %+v", p.Name(), got)
		}
		n.mu.Lock()
		last := n.seen[len(n.seen)-1]
		n.mu.Unlock()
		if last.Messages[len(last.Messages)-1].Role != "user" {
			t.Errorf("%s: last message arrived as %+v", p.Name(), last.Messages[len(last.Messages)-1])
		}
	}
}

// The wrap-up call sent as the agent should send it: the history holds calls and results,
// no tool may run, and the request declares the agent's real tools with a tool choice of
// none (issue 12 item 11). Ollama's Anthropic and OpenAI middleware must accept it, and
// the native request behind them must carry the real declarations, descriptions included.
func TestWrapUpWithRealDeclarationsAccepted(t *testing.T) {
	srv, n := server(t)
	for _, p := range []llm.Provider{
		openai.New(openai.Options{BaseURL: srv.URL + "/v1", Retry: llm.RetryPolicy{Attempts: 1}}),
		anthropic.New(anthropic.Options{BaseURL: srv.URL, APIKey: "unused", Retry: llm.RetryPolicy{Attempts: 1}}),
	} {
		first := request("use two tools")
		resp, err := p.Complete(context.Background(), first)
		if err != nil {
			t.Fatal(err)
		}
		wrap := followUp(first, resp)
		wrap.ToolChoice = llm.ToolChoice{Mode: llm.ToolChoiceNone}
		wrap.Messages = append(wrap.Messages, llm.Message{Role: llm.RoleUser, Content: "No tool can run now; answer from what you have."})
		got, err := p.Complete(context.Background(), wrap)
		if err != nil {
			t.Fatalf("%s: wrap-up refused: %v", p.Name(), err)
		}
		if got.Content != "Hello, world." || len(got.ToolCalls) != 0 {
			t.Errorf("%s: wrap-up reply = %+v", p.Name(), got)
		}
		n.mu.Lock()
		last := n.seen[len(n.seen)-1]
		n.mu.Unlock()
		var declared []string
		for _, tl := range last.Tools {
			declared = append(declared, tl.Function.Name+": "+tl.Function.Description)
		}
		if diff := cmp.Diff([]string{"disk_usage: Disk usage of a host.", "top_processes: Busiest processes."}, declared); diff != "" {
			t.Errorf("%s: tools behind the middleware (-want +got):\n%s", p.Name(), diff)
		}
	}
}
