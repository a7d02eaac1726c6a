package scripted

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/internal/wiretest"
)

var update = flag.Bool("update", false, "rewrite golden files")

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	wiretest.Golden(t, name, got, *update)
}

func userReq(text string) *llm.Request {
	return &llm.Request{Model: "m", Messages: []llm.Message{{Role: llm.RoleUser, Content: text}}}
}

func TestRepliesInOrderWithDefaults(t *testing.T) {
	p := New(
		Reply{Content: "looking", ToolCalls: []llm.ToolCall{{Name: "search", Args: json.RawMessage(`{"q":"x"}`)}, {Name: "fetch"}}},
		Reply{Content: "done", Usage: &llm.Usage{Input: 3, Output: 1, Reported: true}, StopReason: llm.StopMaxTokens},
	)
	ctx := context.Background()
	r1, err := p.Complete(ctx, userReq("hello there"))
	if err != nil {
		t.Fatal(err)
	}
	wantCalls := []llm.ToolCall{
		{ID: "call_1", Name: "search", Args: json.RawMessage(`{"q":"x"}`)},
		{ID: "call_2", Name: "fetch", Args: json.RawMessage(`{}`)},
	}
	if diff := cmp.Diff(wantCalls, r1.ToolCalls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	// input: "hello there" = 11 chars → 3; output: "looking"(7)+"search"(6)+`{"q":"x"}`(9)+"fetch"(5)+"{}"(2)=29 → 8
	if r1.StopReason != llm.StopToolUse || r1.Usage != (llm.Usage{Input: 3, Output: 8, Reported: true}) {
		t.Errorf("defaults: stop %q usage %+v", r1.StopReason, r1.Usage)
	}
	r2, err := p.Complete(ctx, userReq("again"))
	if err != nil {
		t.Fatal(err)
	}
	if r2.Content != "done" || r2.StopReason != llm.StopMaxTokens || r2.Usage.Input != 3 {
		t.Errorf("second reply = %+v", r2)
	}
	_, err = p.Complete(ctx, userReq("more"))
	var ex *ScriptExhaustedError
	if !errors.As(err, &ex) || ex.Call != 3 || ex.Scripted != 2 {
		t.Fatalf("exhaustion error = %v", err)
	}
	if !strings.Contains(err.Error(), "call 3 was made but only 2 replies were scripted") {
		t.Errorf("message = %q", err.Error())
	}
	reqs := p.Requests()
	if len(reqs) != 3 || reqs[1].Messages[0].Content != "again" {
		t.Errorf("Requests() = %+v", reqs)
	}
	p.Reset()
	if p.Calls() != 0 || len(p.Requests()) != 0 {
		t.Error("Reset did not rewind")
	}
	r1b, err := p.Complete(ctx, userReq("hello there"))
	if err != nil || r1b.ToolCalls[0].ID != "call_1" {
		t.Errorf("after Reset: %+v, %v", r1b, err)
	}
}

func TestErrorsAndDelay(t *testing.T) {
	sentinel := errors.New("boom")
	p := New(
		Reply{Err: &llm.Error{Kind: llm.KindRateLimit, Message: "slow down", Retryable: true}},
		Reply{Err: sentinel},
		Reply{Content: "late", Delay: time.Hour},
	)
	ctx := context.Background()
	_, err := p.Complete(ctx, userReq("a"))
	var le *llm.Error
	if !errors.As(err, &le) || le.Kind != llm.KindRateLimit || le.Provider != providerName {
		t.Errorf("scripted llm error = %#v", err)
	}
	if le.Exchange == nil || string(le.Exchange.RequestBody) != `{"model":"m","messages":[{"role":"user","content":"a"}]}` {
		t.Errorf("failed call lost its request bytes: %+v", le.Exchange)
	}
	_, err = p.Complete(ctx, userReq("b"))
	if !errors.Is(err, sentinel) || llm.KindOf(err) != llm.KindUnknown {
		t.Errorf("foreign error = %v", err)
	}
	cctx, cancel := context.WithTimeout(ctx, 10*time.Millisecond)
	defer cancel()
	_, err = p.Complete(cctx, userReq("c"))
	if llm.KindOf(err) != llm.KindTimeout || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("delay past deadline = %v", err)
	}
	done, stop := context.WithCancel(ctx)
	stop()
	if _, err := p.Complete(done, userReq("d")); llm.KindOf(err) != llm.KindCanceled {
		t.Errorf("cancelled = %v", err)
	}
}

func TestFuncSeesSeedAndCall(t *testing.T) {
	p := Func(func(req *llm.Request, call int, seed int64) Reply {
		return Reply{Content: req.Messages[0].Content + "/" + string(rune('0'+call)) + "/" + string(rune('0'+seed))}
	})
	seed := int64(4)
	req := userReq("q")
	req.Seed = &seed
	for i, want := range []string{"q/1/4", "q/2/4"} {
		r, err := p.Complete(context.Background(), req)
		if err != nil || r.Content != want {
			t.Errorf("call %d = %v, %v; want %q", i+1, r, err, want)
		}
	}
	if !llm.CapsOf(p).Seed {
		t.Error("scripted should report seed support")
	}
}

func TestStreamWordChunks(t *testing.T) {
	p := New(Reply{Content: "The disk is  full.", ToolCalls: []llm.ToolCall{{Name: "df"}}})
	var texts []string
	var kinds []llm.EventKind
	var final *llm.Response
	for ev, err := range p.Stream(context.Background(), userReq("hi")) {
		if err != nil {
			t.Fatal(err)
		}
		kinds = append(kinds, ev.Kind)
		if ev.Kind == llm.EventText {
			texts = append(texts, ev.Text)
		}
		if ev.Kind == llm.EventDone {
			final = ev.Response
		}
	}
	if diff := cmp.Diff([]string{"The", " disk", " is", "  full."}, texts); diff != "" {
		t.Errorf("chunks:\n%s", diff)
	}
	wantKinds := []llm.EventKind{"text", "text", "text", "text", "tool_call", "usage", "done"}
	if diff := cmp.Diff(wantKinds, kinds); diff != "" {
		t.Errorf("kinds:\n%s", diff)
	}
	if final == nil || final.Content != "The disk is  full." || final.ToolCalls[0].ID != "call_1" {
		t.Errorf("done = %+v", final)
	}
	// Exhausted stream yields one error.
	n := 0
	for _, err := range p.Stream(context.Background(), userReq("x")) {
		n++
		var ex *ScriptExhaustedError
		if !errors.As(err, &ex) {
			t.Errorf("stream error = %v", err)
		}
	}
	if n != 1 {
		t.Errorf("exhausted stream yielded %d items", n)
	}
}

func TestWords(t *testing.T) {
	for _, s := range []string{"", " ", "a", " a b  ", "x\ny\tz", "émoji 😀 ok"} {
		if got := strings.Join(words(s), ""); got != s {
			t.Errorf("words(%q) joined = %q", s, got)
		}
	}
}

func TestExchangeGolden(t *testing.T) {
	temp := 0.2
	seed := int64(9)
	req := &llm.Request{
		Model:  "demo",
		System: []llm.Segment{{Unit: "persona", Text: "You triage \"ops\" alerts."}, {Unit: "clock", Kind: llm.SpanTimeLine, Text: "Now: 2026-01-01T00:00:00Z"}},
		Messages: []llm.Message{
			{Role: llm.RoleUser, Content: "Why is api slow?", Unit: "history/0"},
			{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "metrics", Args: json.RawMessage(`{"svc":"api"}`)}, {ID: "c2", Name: "logs", Args: json.RawMessage(`{"a":`), ArgsError: "arguments are not valid JSON"}}, Unit: "history/1"},
			{Role: llm.RoleTool, ToolCallID: "c1", ToolName: "metrics", Content: "p99=900ms", Unit: "history/2"},
			{Role: llm.RoleTool, ToolCallID: "c2", ToolName: "logs", Content: "invalid arguments", IsError: true},
		},
		Tools:       []llm.ToolSchema{{Name: "metrics", Description: "Read metrics.", InputSchema: json.RawMessage(`{ "type": "object" }`)}},
		Temperature: &temp, MaxTokens: 100, Stop: []string{"END"}, Seed: &seed,
		ToolChoice: llm.ToolChoice{Mode: llm.ToolChoiceAuto},
	}
	resp, err := New(Reply{Content: "CPU."}).Complete(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	ex := resp.Exchange
	spans, _ := json.MarshalIndent(ex.Spans, "", "  ")
	out := strings.Join([]string{string(ex.RequestBody), string(spans), string(ex.ResponseBody), ""}, "\n")
	golden(t, "exchange.golden", []byte(out))
	checkSpans(t, req, ex)
}

// checkSpans asserts the span rules on one exchange (the
// shared wiretest check), and, stricter for the canonical wire, that every
// unit has a span even when its text is empty and every tool span is the
// object that names the tool.
func checkSpans(t *testing.T, req *llm.Request, ex llm.Exchange) {
	t.Helper()
	wiretest.CheckSpans(t, req, ex)
	seen := map[string]bool{}
	for _, sp := range ex.Spans {
		seen[sp.Unit] = true
		if sp.Kind != llm.SpanToolSchema {
			continue
		}
		var obj map[string]any
		if err := json.Unmarshal(ex.RequestBody[sp.Start:sp.End], &obj); err != nil || obj["name"] == nil {
			t.Errorf("tool span %s is not the tool object: %s", sp.Unit, ex.RequestBody[sp.Start:sp.End])
		}
	}
	for _, m := range req.Messages {
		if m.Unit != "" && !seen[m.Unit] {
			t.Errorf("unit %s has no span", m.Unit)
		}
	}
}

func TestSpansProperty(t *testing.T) {
	alphabet := []string{"a", " ", "\"", "\\", "<", ">", "&", "\u2028", "\u2029", "\x00", "\x1f", "\n", "\t", "😀", "é", "/"}
	rng := rand.New(rand.NewPCG(1, 2))
	text := func() string {
		var b strings.Builder
		for range rng.IntN(12) + 1 {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
	p := Func(func(*llm.Request, int, int64) Reply { return Reply{Content: "ok"} })
	for i := range 200 {
		req := &llm.Request{
			System:   []llm.Segment{{Unit: "u1", Text: text()}, {Unit: "u2", Text: text()}},
			Messages: []llm.Message{{Role: llm.RoleUser, Content: text(), Unit: "history/0"}, {Role: llm.RoleTool, ToolCallID: "x", Content: text(), Unit: "history/1"}},
			Tools:    []llm.ToolSchema{{Name: "t" + text()[:0], Description: text()}},
		}
		resp, err := p.Complete(context.Background(), req)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if !json.Valid(resp.Exchange.RequestBody) {
			t.Fatalf("case %d: invalid body %q", i, resp.Exchange.RequestBody)
		}
		checkSpans(t, req, resp.Exchange)
	}
}

func TestBadSchemaRefused(t *testing.T) {
	req := userReq("x")
	req.Tools = []llm.ToolSchema{{Name: "broken", InputSchema: json.RawMessage(`{"type":`)}}
	_, err := New(Reply{}).Complete(context.Background(), req)
	if llm.KindOf(err) != llm.KindBadRequest || !strings.Contains(err.Error(), `tool "broken": inputSchema`) {
		t.Errorf("err = %v", err)
	}
}
