package wire

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/llm"
)

func noHeader() http.Header { return http.Header{} }

func TestFieldWriters(t *testing.T) {
	temp, seed := 0.5, int64(7)
	tests := []struct {
		name  string
		write func(w *Writer) error
		want  string
		spans int
	}{
		{"function tool, no schema", func(w *Writer) error {
			return w.Tools([]llm.ToolSchema{{Name: "f"}}, w.FunctionTool)
		}, `"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{}}}}]`, 1},
		{"function tool, described", func(w *Writer) error {
			return w.Tools([]llm.ToolSchema{{Name: "f", Description: "d", InputSchema: []byte(`{"type":"object"}`)}}, w.FunctionTool)
		}, `"tools":[{"type":"function","function":{"name":"f","description":"d","parameters":{"type":"object"}}}]`, 1},
		{"system message", func(w *Writer) error {
			w.Key("messages")
			w.BeginArray()
			w.SystemMessage("developer", []llm.Segment{{Unit: "s", Text: "be terse"}})
			w.EndArray()
			return nil
		}, `"messages":[{"role":"developer","content":"be terse"}]`, 1},
		{"sampling, all set", func(w *Writer) error {
			w.Sampling(&llm.Request{Temperature: &temp, MaxTokens: 3, Stop: []string{"a", "b"}, Seed: &seed}, "num_predict")
			return nil
		}, `"temperature":0.5,"num_predict":3,"stop":["a","b"],"seed":7`, 0},
		{"sampling, none set", func(w *Writer) error {
			w.Sampling(&llm.Request{}, "max_tokens")
			return nil
		}, ``, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := NewWriter(64)
			w.BeginObject()
			if err := tt.write(w); err != nil {
				t.Fatal(err)
			}
			w.EndObject()
			if diff := cmp.Diff("{"+tt.want+"}", string(w.B)); diff != "" {
				t.Errorf("body (-want +got):\n%s", diff)
			}
			if len(w.Spans) != tt.spans {
				t.Errorf("spans = %+v, want %d", w.Spans, tt.spans)
			}
		})
	}
}

func TestSchemaRefusesNonJSON(t *testing.T) {
	w := NewWriter(16)
	w.BeginObject()
	err := w.Tools([]llm.ToolSchema{{Name: "broken", InputSchema: []byte(`{nope`)}}, w.FunctionTool)
	if err == nil || !strings.Contains(err.Error(), `tool "broken": inputSchema`) {
		t.Fatalf("err = %v", err)
	}
}

func TestCallHeader(t *testing.T) {
	extra := http.Header{"X-Org": {"o1"}, "Accept": {"text/plain"}}
	tests := []struct {
		stream bool
		accept string
	}{{false, "application/json"}, {true, "application/x-ndjson"}}
	for _, tt := range tests {
		h := CallHeader(extra, tt.stream, "application/x-ndjson")
		want := http.Header{"X-Org": {"o1"}, "Accept": {tt.accept}, "Content-Type": {"application/json"}}
		if diff := cmp.Diff(want, h); diff != "" {
			t.Errorf("stream=%v (-want +got):\n%s", tt.stream, diff)
		}
		h["X-Org"][0] = "changed"
		if extra.Get("X-Org") != "o1" {
			t.Fatal("CallHeader shares its value slices with extra")
		}
	}
}

func TestDefaults(t *testing.T) {
	if got := TimeoutOr(0, time.Minute); got != time.Minute {
		t.Errorf("TimeoutOr(0) = %v", got)
	}
	if got := TimeoutOr(-1, time.Minute); got != -1 {
		t.Errorf("TimeoutOr(-1) = %v", got)
	}
	if got := ModelOr(&llm.Request{}, "d"); got != "d" {
		t.Errorf("ModelOr(empty) = %q", got)
	}
	if got := ModelOr(&llm.Request{Model: "m"}, "d"); got != "m" {
		t.Errorf("ModelOr(m) = %q", got)
	}
}

// Frames past a finished stream are not read, so none are kept.
func TestDriveSSE(t *testing.T) {
	body := "data: a\n\ndata: b\n\n: trailing comment\n"
	tests := []struct {
		name        string
		stopAt      string
		finishAfter int
		feedErr     error
		wantStopped bool
		wantTexts   []string
		wantFrames  int
	}{
		{name: "to the end, rest kept", wantTexts: []string{"a", "b"}, wantFrames: 3},
		{name: "consumer stops", stopAt: "a", wantStopped: true, wantTexts: []string{"a"}, wantFrames: 1},
		{name: "finished early", finishAfter: 1, wantTexts: []string{"a"}, wantFrames: 1},
		{name: "feed refuses", feedErr: errors.New("bad frame"), wantFrames: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ex llm.Exchange
			var texts []string
			fed := 0
			stopped, err := DriveSSE(strings.NewReader(body), &ex, func(ev SSEEvent) (string, error) {
				fed++
				return string(ev.Data), tt.feedErr
			}, func() bool { return tt.finishAfter > 0 && fed >= tt.finishAfter }, func(s string) bool {
				texts = append(texts, s)
				return s != tt.stopAt
			})
			if !errors.Is(err, tt.feedErr) || stopped != tt.wantStopped {
				t.Fatalf("stopped=%v err=%v", stopped, err)
			}
			if diff := cmp.Diff(tt.wantTexts, texts); diff != "" {
				t.Errorf("texts (-want +got):\n%s", diff)
			}
			if len(ex.Frames) != tt.wantFrames {
				t.Errorf("frames = %q, want %d", ex.Frames, tt.wantFrames)
			}
		})
	}
}

func TestCallerRefusals(t *testing.T) {
	encode := func(req *llm.Request, stream bool) ([]byte, []llm.Span, error) {
		if req.Model == "bad" {
			return nil, nil, errors.New("cannot encode")
		}
		return []byte(`{}`), nil, nil
	}
	k := &Caller{Sender: &Sender{Profile: Profile{Provider: "p", BaseURL: "http://x"}, HTTP: http.DefaultClient},
		ModelHint: "p.Options.Model", MaxBody: 1 << 10, Encode: encode}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		req  *llm.Request
		kind llm.ErrorKind
		msg  string
	}{
		{"nil request", context.Background(), nil, llm.KindBadRequest, "the request is nil"},
		{"no model", context.Background(), &llm.Request{}, llm.KindBadRequest, "set Request.Model or p.Options.Model"},
		{"encode fails", context.Background(), &llm.Request{Model: "bad"}, llm.KindBadRequest, "could not be encoded: cannot encode"},
		{"cancelled", cancelled, &llm.Request{Model: "m"}, llm.KindOf(CtxError("p", context.Canceled, "")), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := k.Complete(tt.ctx, tt.req, "http://x", http.Header{}, nil)
			if llm.KindOf(err) != tt.kind || !strings.Contains(fmt.Sprint(err), tt.msg) {
				t.Errorf("Complete err = %v (kind %s)", err, llm.KindOf(err))
			}
			for _, serr := range k.Stream(tt.ctx, tt.req, "http://x", noHeader, nil, nil) {
				if llm.KindOf(serr) != tt.kind || !strings.Contains(fmt.Sprint(serr), tt.msg) {
					t.Errorf("Stream err = %v", serr)
				}
			}
		})
	}
}

func TestCallerStreamPlainBody(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `whole`)
	}))
	defer srv.Close()
	k := &Caller{Sender: &Sender{Profile: Profile{Provider: "p", BaseURL: srv.URL, Model: "m"}, HTTP: srv.Client()},
		MaxBody: 1 << 10, Encode: func(*llm.Request, bool) ([]byte, []llm.Span, error) { return []byte(`{}`), nil, nil }}
	plain := func(raw []byte, _ Profile, _ http.Header) (*llm.Response, error) {
		return &llm.Response{Content: string(raw)}, nil
	}
	var kinds []llm.EventKind
	var done *llm.Response
	for ev, err := range k.Stream(context.Background(), &llm.Request{}, srv.URL, noHeader, plain, nil) {
		if err != nil {
			t.Fatal(err)
		}
		kinds = append(kinds, ev.Kind)
		if ev.Kind == llm.EventDone {
			done = ev.Response
		}
	}
	if diff := cmp.Diff([]llm.EventKind{llm.EventText, llm.EventDone}, kinds); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if done == nil || string(done.Exchange.ResponseBody) != "whole" || string(done.Exchange.RequestBody) != "{}" {
		t.Errorf("done = %+v", done)
	}
}

func TestStartBodyOpenMessages(t *testing.T) {
	tests := []struct {
		system []llm.Segment
		want   string
	}{
		{nil, `{"model":"m","messages":[]}`},
		{[]llm.Segment{{Unit: "s", Text: ""}}, `{"model":"m","messages":[]}`},
		{[]llm.Segment{{Unit: "s", Text: "x"}}, `{"model":"m","messages":[{"role":"system","content":"x"}]}`},
	}
	for _, tt := range tests {
		w := StartBody(&llm.Request{System: tt.system}, "m")
		w.OpenMessages("system", tt.system)
		w.EndArray()
		w.EndObject()
		if string(w.B) != tt.want {
			t.Errorf("system %+v: body = %s, want %s", tt.system, w.B, tt.want)
		}
	}
}

func TestNewCaller(t *testing.T) {
	tests := []struct {
		name      string
		setup     Setup
		wantLabel string
		wantHint  string
	}{
		{"defaults", Setup{Pkg: "openai", Timeout: time.Minute}, "the client timeout of 1m0s (openai.Options.Timeout)", "openai.Options.Model"},
		{"own hint", Setup{Pkg: "ollama", Timeout: -1, ModelHint: "ollama.Options.Model (see `ollama list`)"},
			"the client timeout of -1ns (ollama.Options.Timeout)", "ollama.Options.Model (see `ollama list`)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := NewCaller(tt.setup)
			if k.Sender.HTTP == nil || k.Sender.TimeoutLabel != tt.wantLabel || k.ModelHint != tt.wantHint || k.Timeout != tt.setup.Timeout {
				t.Errorf("caller = %+v, sender = %+v", k, k.Sender)
			}
		})
	}
	if got := FirstSet("", "b", "c"); got != "b" {
		t.Errorf("FirstSet = %q", got)
	}
	if got := FirstSet("", ""); got != "" {
		t.Errorf("FirstSet(empty) = %q", got)
	}
}

// StartBody makes room for the body a request takes, so encoding a long
// conversation grows the buffer at most once, and for one span a unit.
func TestStartBodySizesTheBody(t *testing.T) {
	req := &llm.Request{System: []llm.Segment{{Unit: "sys", Text: strings.Repeat("s", 300)}}}
	for i := range 200 {
		req.Messages = append(req.Messages, llm.Message{Role: llm.RoleUser, Unit: fmt.Sprintf("history/%d", i), Content: strings.Repeat("m", 500)})
	}
	w := StartBody(req, "m")
	if c := cap(w.B); c < 200*500+300 {
		t.Errorf("room for %d bytes, want at least the request's %d bytes of text", c, 200*500+300)
	}
	if c := cap(w.Spans); c != 201 {
		t.Errorf("room for %d spans, want 201 (one a unit)", c)
	}
	w.OpenMessages("system", req.System)
	start := cap(w.B)
	for _, m := range req.Messages {
		w.BeginObject()
		w.Field("role", string(m.Role))
		w.Key("content")
		w.StringSpan(m.Content, m.Unit, llm.SpanMessage)
		w.EndObject()
	}
	w.EndArray()
	w.EndObject()
	if cap(w.B) != start {
		t.Errorf("the body grew from %d to %d bytes of room for %d bytes", start, cap(w.B), len(w.B))
	}
	if len(w.Spans) != 201 || cap(w.Spans) != 201 {
		t.Errorf("%d spans in room for %d, want 201 in 201", len(w.Spans), cap(w.Spans))
	}
}
