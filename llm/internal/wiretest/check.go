// This file holds assertions shared by the clients' tests: golden files,
// the span rules (each unit's bytes, in order, inside the body), and a printable summary of a reply.

package wiretest

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/llm"
)

// Golden compares got with testdata/<name>, rewriting it when update is set.
func Golden(t testing.TB, name string, got []byte, update bool) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-want +got):\n%s", name, diff)
	}
}

// Outcome is the comparable summary of one call.
type Outcome struct {
	Content       string         `json:"content,omitempty"`
	ToolCalls     []llm.ToolCall `json:"toolCalls,omitempty"`
	StopReason    llm.StopReason `json:"stopReason,omitempty"`
	RawStopReason string         `json:"rawStopReason,omitempty"`
	Usage         *llm.Usage     `json:"usage,omitempty"`
	Model         string         `json:"model,omitempty"`
	ProviderRef   string         `json:"providerRef,omitempty"`
	Streamed      []string       `json:"streamed,omitempty"` // event kinds in order, text deltas merged
	ErrorKind     llm.ErrorKind  `json:"errorKind,omitempty"`
	Error         string         `json:"error,omitempty"`
	Retryable     bool           `json:"retryable,omitempty"`
}

// Summarize turns a reply or error into an Outcome.
func Summarize(resp *llm.Response, err error) Outcome {
	if err != nil {
		o := Outcome{Error: err.Error(), ErrorKind: llm.KindOf(err)}
		var le *llm.Error
		if errors.As(err, &le) {
			o.Retryable = le.Retryable
		}
		return o
	}
	u := resp.Usage
	return Outcome{Content: resp.Content, ToolCalls: resp.ToolCalls, StopReason: resp.StopReason, RawStopReason: resp.RawStopReason,
		Usage: &u, Model: resp.Model, ProviderRef: resp.ProviderRef}
}

// Drain runs a stream and summarises it, checking the stream contract: text
// deltas add up to the final content, tool_call events match the final
// calls, and done comes last, exactly once.
func Drain(t testing.TB, seq func(func(llm.StreamEvent, error) bool)) Outcome {
	t.Helper()
	var kinds []string
	var text strings.Builder
	var calls []llm.ToolCall
	var done *llm.Response
	for ev, err := range seq {
		if err != nil {
			if done != nil {
				t.Errorf("error after done: %v", err)
			}
			o := Summarize(nil, err)
			o.Streamed = kinds
			return o
		}
		if done != nil {
			t.Errorf("event %q after done", ev.Kind)
		}
		switch ev.Kind {
		case llm.EventText:
			text.WriteString(ev.Text)
			if len(kinds) == 0 || kinds[len(kinds)-1] != "text" {
				kinds = append(kinds, "text")
			}
			continue
		case llm.EventToolCall:
			calls = append(calls, *ev.ToolCall)
		case llm.EventDone:
			done = ev.Response
		}
		kinds = append(kinds, string(ev.Kind))
	}
	if done == nil {
		t.Fatal("stream ended without done")
	}
	if text.String() != done.Content {
		t.Errorf("deltas add up to %q, done says %q", text.String(), done.Content)
	}
	if diff := cmp.Diff(done.ToolCalls, calls); diff != "" {
		t.Errorf("tool_call events differ from done's calls:\n%s", diff)
	}
	o := Summarize(done, nil)
	o.Streamed = kinds
	return o
}

// JSON renders v indented with a trailing newline, for golden files.
func JSON(v any) []byte {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(err) // test helper: the values are plain data
	}
	return append(b, '\n')
}

// CheckSpans asserts the span rules on one exchange: ascending and
// non-overlapping; text spans unescape to exactly the unit's text; a tool
// span is the whole tool object; every unit with text has a span.
func CheckSpans(t testing.TB, req *llm.Request, ex llm.Exchange) {
	t.Helper()
	want := map[string]string{}
	for _, s := range req.System {
		if s.Unit != "" && s.Text != "" {
			want[s.Unit] = s.Text
		}
	}
	for _, m := range req.Messages {
		if m.Unit != "" {
			want[m.Unit] = m.Content
		}
	}
	prevEnd := 0
	seen := map[string]bool{}
	for _, sp := range ex.Spans {
		if sp.Start < prevEnd || sp.End < sp.Start || sp.End > len(ex.RequestBody) {
			t.Fatalf("span %+v out of order or range (body %d bytes)", sp, len(ex.RequestBody))
		}
		prevEnd = sp.End
		frag := ex.RequestBody[sp.Start:sp.End]
		if sp.Kind == llm.SpanToolSchema {
			var obj map[string]any
			if err := json.Unmarshal(frag, &obj); err != nil {
				t.Errorf("tool span %s is not a JSON object: %s", sp.Unit, frag)
			}
			continue
		}
		var got string
		if err := json.Unmarshal(append(append([]byte{'"'}, frag...), '"'), &got); err != nil {
			t.Fatalf("span %s: %v", sp.Unit, err)
		}
		if got != want[sp.Unit] {
			t.Errorf("span %s = %q, want %q", sp.Unit, got, want[sp.Unit])
		}
		seen[sp.Unit] = true
	}
	for u, text := range want {
		if !seen[u] && text != "" {
			t.Errorf("unit %s has no span", u)
		}
	}
}

// RandomRequest builds a request whose unit texts mix quotes, backslashes,
// HTML characters, line separators, control characters and emoji.
func RandomRequest(rng *rand.Rand) *llm.Request {
	alphabet := []string{"a", " ", "\"", "\\", "<", ">", "&", "\u2028", "\u2029", "\x00", "\x1f", "\n", "\t", "😀", "é", "/", "'"}
	text := func() string {
		var b strings.Builder
		for range rng.IntN(12) + 1 {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
	return &llm.Request{
		Model:  "m",
		System: []llm.Segment{{Unit: "u1", Text: text()}, {Unit: "u2", Text: text()}},
		Messages: []llm.Message{
			{Role: llm.RoleUser, Content: text(), Unit: "history/0"},
			{Role: llm.RoleAssistant, Content: text(), Unit: "history/1", ToolCalls: []llm.ToolCall{{ID: "c1", Name: "f", Args: json.RawMessage(`{"x":1}`)}}},
			{Role: llm.RoleTool, ToolCallID: "c1", ToolName: "f", Content: text(), Unit: "history/2"},
			{Role: llm.RoleUser, Content: text(), Unit: "history/3"},
		},
		Tools: []llm.ToolSchema{{Name: "f", Description: text(), InputSchema: json.RawMessage(`{"type":"object"}`)}},
	}
}
