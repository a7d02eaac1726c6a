// Tests of unexported helpers.

package agent

import (
	"testing"

	"github.com/agentfootprint/agentfootprint-go/internal/textlen"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/google/go-cmp/cmp"
)

func TestCloseOpenCalls(t *testing.T) {
	u := llm.Message{Role: llm.RoleUser, Content: "q"}
	asst := llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "a", Name: "x"}, {ID: "b", Name: "y"}}}
	ansA := llm.Message{Role: llm.RoleTool, ToolCallID: "a", ToolName: "x", Content: "ok"}
	openB := llm.Message{Role: llm.RoleTool, ToolCallID: "b", ToolName: "y", Content: openCallText, IsError: true}
	openA := llm.Message{Role: llm.RoleTool, ToolCallID: "a", ToolName: "x", Content: openCallText, IsError: true}
	for _, tc := range []struct {
		name string
		in   []llm.Message
		want []llm.Message
	}{
		{"nothing open", []llm.Message{u, asst, ansA, openB}, []llm.Message{u, asst, ansA, openB}},
		{"one open at the end", []llm.Message{u, asst, ansA}, []llm.Message{u, asst, ansA, openB}},
		{"both open mid-history", []llm.Message{u, asst, u}, []llm.Message{u, asst, openA, openB, u}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, closeOpenCalls(tc.in)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// systemChars counts what llm.SystemText would join, without joining.
func TestSystemCharsCountsTheJoinedText(t *testing.T) {
	for _, segs := range [][]llm.Segment{
		nil,
		{{Text: ""}},
		{{Text: "You triage incidents."}},
		{{Text: "héllo 😀"}, {Text: ""}, {Text: "second"}, {Unit: "u", Text: "third\n"}},
	} {
		if got, want := systemChars(segs), textlen.UTF16(llm.SystemText(segs)); got != want {
			t.Errorf("systemChars(%q) = %d, want %d", segs, got, want)
		}
	}
}
