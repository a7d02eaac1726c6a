// This file encodes an llm.Request as an /api/chat body, recording unit
// spans as it writes.

package ollama

import (
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/internal/wire"
)

// encode writes the request body. Sampling settings go under "options";
// a tool choice of none sends no tools (the API has no tool_choice).
func (c *apiClient) encode(req *llm.Request, stream bool) ([]byte, []llm.Span, error) {
	w := wire.StartBody(req, c.model(req))
	w.OpenMessages("system", req.System)
	for i, m := range req.Messages {
		switch m.Role {
		case llm.RoleSystem, llm.RoleUser, llm.RoleAssistant, llm.RoleTool:
		default:
			return nil, nil, fmt.Errorf("messages[%d].role: %q is not system, user, assistant or tool", i, m.Role)
		}
		w.BeginObject()
		w.Key("role")
		w.String(string(m.Role))
		w.Key("content")
		w.StringSpan(m.Content, m.Unit, llm.SpanMessage)
		if m.Role == llm.RoleAssistant && len(m.ToolCalls) > 0 {
			w.Key("tool_calls")
			w.BeginArray()
			for _, tc := range m.ToolCalls {
				w.BeginObject()
				if tc.ID != "" {
					w.Key("id")
					w.String(tc.ID)
				}
				w.Key("function")
				w.BeginObject()
				w.Key("name")
				w.String(tc.Name)
				w.Key("arguments")
				if err := w.Raw(wire.ArgsObject(tc)); err != nil {
					return nil, nil, fmt.Errorf("messages[%d]: tool call %q arguments: %w", i, tc.Name, err)
				}
				w.EndObject()
				w.EndObject()
			}
			w.EndArray()
		}
		if m.Role == llm.RoleTool {
			if m.ToolName != "" {
				w.Key("tool_name")
				w.String(m.ToolName)
			}
			if m.ToolCallID != "" {
				w.Key("tool_call_id")
				w.String(m.ToolCallID)
			}
		}
		w.EndObject()
	}
	w.EndArray()
	if len(req.Tools) > 0 && req.ToolChoice.Mode != llm.ToolChoiceNone {
		if err := w.Tools(req.Tools, w.FunctionTool); err != nil {
			return nil, nil, err
		}
	}
	w.Key("stream")
	w.Bool(stream)
	if req.Temperature != nil || req.MaxTokens > 0 || len(req.Stop) > 0 || req.Seed != nil {
		w.Key("options")
		w.BeginObject()
		w.Sampling(req, "num_predict")
		w.EndObject()
	}
	if c.opts.KeepAlive != "" {
		w.Key("keep_alive")
		w.String(c.opts.KeepAlive)
	}
	w.EndObject()
	return w.B, w.Spans, nil
}
