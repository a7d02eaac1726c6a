package scripted

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/llm"
)

const sample = `[
  {"content": "Let me look.",
   "toolCalls": [{"name": "search", "args": {"q": "disk"}},
                 {"id": "x1", "name": "fetch", "argsText": "{\"url\":"}],
   "usage": {"input": 120, "output": 9},
   "stopReason": "tool_use",
   "delay": "150ms"},
  {"error": {"kind": "rate-limit", "message": "slow down", "status": 429, "retryAfter": "2s"}},
  {"error": "it broke"},
  {"content": "Done.", "usage": {"input": 1, "output": 1, "reported": false}}
]`

func TestParseReplies(t *testing.T) {
	got, err := ParseReplies([]byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	want := []Reply{
		{Content: "Let me look.", ToolCalls: []llm.ToolCall{
			{Name: "search", Args: json.RawMessage(`{"q": "disk"}`)},
			{ID: "x1", Name: "fetch", Args: json.RawMessage(`"{\"url\":"`), ArgsError: "arguments are not valid JSON: unexpected end of JSON input"},
		}, Usage: &llm.Usage{Input: 120, Output: 9, Reported: true}, StopReason: llm.StopToolUse, Delay: 150 * time.Millisecond},
		{Err: &llm.Error{Provider: providerName, Kind: llm.KindRateLimit, Status: 429, Retryable: true, Resumable: true, RetryAfter: 2 * time.Second, Message: "slow down"}},
		{Err: &llm.Error{Provider: providerName, Kind: llm.KindUnknown, Resumable: true, Message: "it broke"}},
		{Content: "Done.", Usage: &llm.Usage{Input: 1, Output: 1}},
	}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b error) bool { return cmp.Equal(a, b) })); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// The JSON form round-trips.
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	again, err := ParseReplies(b)
	if err != nil {
		t.Fatalf("reparse %s: %v", b, err)
	}
	compact := cmp.Transformer("compact", func(r json.RawMessage) string {
		var b bytes.Buffer
		if json.Compact(&b, r) != nil {
			return string(r)
		}
		return b.String()
	})
	if diff := cmp.Diff(got, again, compact, cmp.Comparer(func(a, b error) bool { return cmp.Equal(a, b) })); diff != "" {
		t.Errorf("round trip:\n%s", diff)
	}
}

func TestParseRepliesRefusals(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{}`, "replies: want a JSON array"},
		{`[{"contnet": "x"}]`, `replies[0]: reply: json: unknown field "contnet"`},
		{`[{}, {"stopReason": "end"}]`, `replies[1]: reply: stopReason: "end" is not one of`},
		{`[{"delay": "soon"}]`, `replies[0]: reply: delay: "soon" is not a non-negative Go duration`},
		{`[{"toolCalls": [{"args": {}}]}]`, `replies[0]: reply: toolCalls[0].name: a tool call needs a name`},
		{`[{"toolCalls": [{"name": "f", "arguments": {}}]}]`, `unknown key "arguments"`},
		{`[{"error": {"kind": "oops", "message": "m"}}]`, `replies[0]: reply: error: kind: "oops" is not an llm error kind`},
		{`[{"error": {"kind": "server"}}]`, `replies[0]: reply: error: message:`},
		{`[{"usage": {"input": -1, "output": 0}}]`, `usage: token counts cannot be negative`},
	}
	for _, tt := range tests {
		_, err := ParseReplies([]byte(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseReplies(%s) = %v; want it to contain %q", tt.in, err, tt.want)
		}
	}
}

func FuzzParseReplies(f *testing.F) {
	f.Add([]byte(sample))
	f.Add([]byte(`[{"toolCalls":[{"name":"f","argsText":"[1"}]}]`))
	f.Add([]byte(`[{"error":"x"}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rs, err := ParseReplies(data)
		if err != nil {
			return
		}
		b, err := json.Marshal(rs)
		if err != nil {
			t.Fatalf("marshal parsed replies: %v", err)
		}
		again, err := ParseReplies(b)
		if err != nil {
			t.Fatalf("reparse %s: %v", b, err)
		}
		if len(again) != len(rs) {
			t.Fatalf("round trip changed length")
		}
		for i := range rs {
			if (rs[i].Err == nil) != (again[i].Err == nil) || rs[i].Content != again[i].Content || len(rs[i].ToolCalls) != len(again[i].ToolCalls) {
				t.Fatalf("reply %d changed in round trip", i)
			}
		}
		_ = errors.New
	})
}

// TestUsageReasoning checks the reasoning count of a scripted usage: read,
// written back, and refused when negative.
func TestUsageReasoning(t *testing.T) {
	rs, err := ParseReplies([]byte(`[{"content":"ok","usage":{"input":3,"output":40,"reasoning":32}}]`))
	if err != nil {
		t.Fatal(err)
	}
	want := llm.Usage{Input: 3, Output: 40, Reasoning: 32, Reported: true}
	if rs[0].Usage == nil || *rs[0].Usage != want {
		t.Fatalf("usage %+v, want %+v", rs[0].Usage, want)
	}
	b, err := json.Marshal(rs[0])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"reasoning":32`) {
		t.Errorf("written back as %s", b)
	}
	if _, err := ParseReplies([]byte(`[{"usage":{"input":1,"output":1,"reasoning":-1}}]`)); err == nil || !strings.Contains(err.Error(), "usage") {
		t.Errorf("a negative reasoning count: err = %v", err)
	}
}
