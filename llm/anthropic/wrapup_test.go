package anthropic

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/internal/wiretest"
)

// recordedBlock is one content block of a recorded Messages API request.
type recordedBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
}

// recordedRequest is the part of a recorded request body the wrap-up test rebuilds.
type recordedRequest struct {
	Tools    []map[string]any `json:"tools"`
	Messages []struct {
		Role    string          `json:"role"`
		Content []recordedBlock `json:"content"`
	} `json:"messages"`
}

// The wrap-up call (no tool may run, the history holds tool_use and tool_result blocks) is
// sent with the agent's real tool declarations and tool_choice {"type":"none"} (issue 12
// item 11). Proved against the Anthropic SDK's recorded tool-runner traffic: every recorded
// request whose history holds tool blocks defines its tools (the API's rule), and the
// request this client builds from that history, with the recorded tools and tool choice
// none, declares exactly the recorded tools, byte for byte after decoding, plus
// tool_choice none, and no placeholder.
func TestWrapUpSendsTheRealDeclarations(t *testing.T) {
	for _, file := range []string{"anthropic-sdk-go/tool_runner_basic.yaml", "anthropic-sdk-go/tool_runner_concurrent.yaml", "anthropic-sdk-go/tool_runner_tool_call_error.yaml"} {
		recs := wiretest.Load(t, file)
		checked := 0
		for i, rec := range recs {
			var rr recordedRequest
			if err := json.Unmarshal(rec.RequestBody, &rr); err != nil {
				t.Fatalf("%s #%d: %v", file, i, err)
			}
			req := &llm.Request{Model: "claude-x", MaxTokens: 100, ToolChoice: llm.ToolChoice{Mode: llm.ToolChoiceNone}}
			toolBlocks := false
			for _, m := range rr.Messages {
				var results []llm.Message
				msg := llm.Message{Role: llm.Role(m.Role)}
				for _, b := range m.Content {
					switch b.Type {
					case "text":
						msg.Content += b.Text
					case "tool_use":
						toolBlocks = true
						msg.ToolCalls = append(msg.ToolCalls, llm.ToolCall{ID: b.ID, Name: b.Name, Args: b.Input})
					case "tool_result":
						toolBlocks = true
						results = append(results, llm.Message{Role: llm.RoleTool, ToolCallID: b.ToolUseID, Content: string(b.Content)})
					}
				}
				if len(results) > 0 {
					req.Messages = append(req.Messages, results...)
					continue
				}
				req.Messages = append(req.Messages, msg)
			}
			if !toolBlocks {
				continue
			}
			if len(rr.Tools) == 0 {
				t.Errorf("%s #%d: a recorded request with tool blocks defines no tools", file, i)
			}
			for _, tl := range rr.Tools {
				schema, _ := json.Marshal(tl["input_schema"])
				desc, _ := tl["description"].(string)
				req.Tools = append(req.Tools, llm.ToolSchema{Name: tl["name"].(string), Description: desc, InputSchema: schema})
			}
			body, spans, err := newAPIClient(Options{BaseURL: "http://x"}).encode(req, false)
			if err != nil {
				t.Fatal(err)
			}
			var sent struct {
				Tools      []map[string]any `json:"tools"`
				ToolChoice map[string]any   `json:"tool_choice"`
			}
			if err := json.Unmarshal(body, &sent); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(rr.Tools, sent.Tools); diff != "" {
				t.Errorf("%s #%d: declared tools differ from the recorded ones (-recorded +sent):\n%s", file, i, diff)
			}
			if diff := cmp.Diff(map[string]any{"type": "none"}, sent.ToolChoice); diff != "" {
				t.Errorf("%s #%d: tool_choice (-want +got):\n%s", file, i, diff)
			}
			units := 0
			for _, sp := range spans {
				if sp.Kind == llm.SpanToolSchema {
					units++
				}
			}
			if units != len(rr.Tools) {
				t.Errorf("%s #%d: %d tool spans recorded, want one per real declaration (%d)", file, i, units, len(rr.Tools))
			}
			checked++
		}
		if checked == 0 {
			t.Errorf("%s: no recorded request with tool blocks", file)
		}
	}
}
