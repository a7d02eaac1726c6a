// This file encodes an llm.Request as a Chat Completions body, recording
// unit spans as it writes.

package openai

import (
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/internal/wire"
)

// encode writes the request body. stream adds "stream" and, unless
// omitted, "stream_options":{"include_usage":true}.
func (c *apiClient) encode(req *llm.Request, stream bool) ([]byte, []llm.Span, error) {
	w := wire.StartBody(req, c.model(req))
	w.OpenMessages(c.systemRole(), req.System)
	for i, m := range req.Messages {
		w.BeginObject()
		w.Key("role")
		switch m.Role {
		case llm.RoleSystem:
			w.String(c.systemRole())
		case llm.RoleUser, llm.RoleAssistant, llm.RoleTool:
			w.String(string(m.Role))
		default:
			return nil, nil, fmt.Errorf("messages[%d].role: %q is not system, user, assistant or tool", i, m.Role)
		}
		w.Key("content")
		w.StringSpan(m.Content, m.Unit, llm.SpanMessage)
		if m.Role == llm.RoleTool {
			w.Key("tool_call_id")
			w.String(m.ToolCallID)
		}
		if m.Role == llm.RoleAssistant && len(m.ToolCalls) > 0 {
			w.Key("tool_calls")
			w.BeginArray()
			for _, tc := range m.ToolCalls {
				w.BeginObject()
				w.Key("id")
				w.String(tc.ID)
				w.Key("type")
				w.String("function")
				w.Key("function")
				w.BeginObject()
				w.Key("name")
				w.String(tc.Name)
				w.Key("arguments")
				w.String(wire.ArgsText(tc))
				w.EndObject()
				w.EndObject()
			}
			w.EndArray()
		}
		w.EndObject()
	}
	w.EndArray()
	if len(req.Tools) > 0 {
		if err := w.Tools(req.Tools, w.FunctionTool); err != nil {
			return nil, nil, err
		}
	}
	switch req.ToolChoice.Mode {
	case llm.ToolChoiceDefault:
	case llm.ToolChoiceAuto, llm.ToolChoiceNone, llm.ToolChoiceRequired:
		w.Key("tool_choice")
		w.String(string(req.ToolChoice.Mode))
	case llm.ToolChoiceTool:
		if req.ToolChoice.Name == "" {
			return nil, nil, fmt.Errorf("toolChoice.name: a forced tool choice needs the tool's name")
		}
		w.Key("tool_choice")
		w.BeginObject()
		w.Key("type")
		w.String("function")
		w.Key("function")
		w.BeginObject()
		w.Key("name")
		w.String(req.ToolChoice.Name)
		w.EndObject()
		w.EndObject()
	default:
		return nil, nil, fmt.Errorf("toolChoice.mode: %q is not auto, none, required or tool", req.ToolChoice.Mode)
	}
	w.Sampling(req, c.maxTokensField())
	if stream {
		w.Key("stream")
		w.Bool(true)
		if !c.opts.OmitStreamUsage {
			w.Key("stream_options")
			w.BeginObject()
			w.Key("include_usage")
			w.Bool(true)
			w.EndObject()
		}
	}
	w.EndObject()
	return w.B, w.Spans, nil
}
