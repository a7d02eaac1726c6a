// This file encodes an llm.Request as a Messages API body, recording unit
// spans as it writes.

package anthropic

import (
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/internal/wire"
)

// encode writes the request body. Consecutive tool results become one user
// message of tool_result blocks, as the API requires; a user text after
// them starts its own user message (the API joins consecutive user turns
// itself, and translators such as Ollama's keep the order that way). System
// messages inside Messages are appended to the top-level system text.
func (c *apiClient) encode(req *llm.Request, stream bool) ([]byte, []llm.Span, error) {
	w := wire.StartBody(req, c.model(req))
	w.Key("max_tokens")
	w.Int(int64(c.maxTokens(req)))
	system := req.System
	for _, m := range req.Messages {
		if m.Role == llm.RoleSystem && m.Content != "" {
			system = append(system[:len(system):len(system)], llm.Segment{Unit: m.Unit, Kind: llm.SpanMessage, Text: m.Content})
		}
	}
	if llm.SystemText(system) != "" {
		w.Key("system")
		w.Segments(system)
	}
	w.Key("messages")
	w.BeginArray()
	var open llm.Role // the kind of message currently open, "" when none
	for i, m := range req.Messages {
		var role string
		switch m.Role {
		case llm.RoleSystem:
			continue
		case llm.RoleUser, llm.RoleTool:
			role = "user"
		case llm.RoleAssistant:
			role = "assistant"
		default:
			return nil, nil, fmt.Errorf("messages[%d].role: %q is not system, user, assistant or tool", i, m.Role)
		}
		if m.Role != open {
			if open != "" {
				w.EndArray()
				w.EndObject()
			}
			w.BeginObject()
			w.Key("role")
			w.String(role)
			w.Key("content")
			w.BeginArray()
			open = m.Role
		}
		switch m.Role {
		case llm.RoleUser:
			w.BeginObject()
			w.Key("type")
			w.String("text")
			w.Key("text")
			w.StringSpan(m.Content, m.Unit, llm.SpanMessage)
			w.EndObject()
		case llm.RoleTool:
			w.BeginObject()
			w.Key("type")
			w.String("tool_result")
			w.Key("tool_use_id")
			w.String(m.ToolCallID)
			w.Key("content")
			w.StringSpan(m.Content, m.Unit, llm.SpanMessage)
			if m.IsError {
				w.Key("is_error")
				w.Bool(true)
			}
			w.EndObject()
		case llm.RoleAssistant:
			if m.Content != "" || len(m.ToolCalls) == 0 {
				w.BeginObject()
				w.Key("type")
				w.String("text")
				w.Key("text")
				w.StringSpan(m.Content, m.Unit, llm.SpanMessage)
				w.EndObject()
			}
			for _, tc := range m.ToolCalls {
				w.BeginObject()
				w.Key("type")
				w.String("tool_use")
				w.Key("id")
				w.String(tc.ID)
				w.Key("name")
				w.String(tc.Name)
				w.Key("input")
				if err := w.Raw(wire.ArgsObject(tc)); err != nil {
					return nil, nil, fmt.Errorf("messages[%d]: tool call %q input: %w", i, tc.Name, err)
				}
				w.EndObject()
			}
		}
	}
	if open != "" {
		w.EndArray()
		w.EndObject()
	}
	w.EndArray()
	if len(req.Tools) > 0 {
		err := w.Tools(req.Tools, func(t *llm.ToolSchema) error {
			w.BeginObject()
			w.Field("name", t.Name)
			if t.Description != "" {
				w.Field("description", t.Description)
			}
			if err := w.Schema("input_schema", t, wire.OpenSchema); err != nil {
				return err
			}
			w.EndObject()
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
	}
	placeholders := len(req.Tools) == 0 && historyTools(req) != nil
	if placeholders {
		// The Messages API refuses tool_use/tool_result blocks in a request
		// that defines no tools (a wrap-up call sends none). Declare each
		// tool the history names with an open schema and forbid its use.
		w.Key("tools")
		w.BeginArray()
		for _, name := range historyTools(req) {
			w.BeginObject()
			w.Key("name")
			w.String(name)
			w.Key("input_schema")
			_ = w.Raw([]byte(`{"type":"object"}`))
			w.EndObject()
		}
		w.EndArray()
		w.Key("tool_choice")
		w.BeginObject()
		w.Key("type")
		w.String("none")
		w.EndObject()
	}
	if tc := req.ToolChoice; tc.Mode != llm.ToolChoiceDefault && !placeholders {
		w.Key("tool_choice")
		w.BeginObject()
		w.Key("type")
		switch tc.Mode {
		case llm.ToolChoiceAuto, llm.ToolChoiceNone:
			w.String(string(tc.Mode))
		case llm.ToolChoiceRequired:
			w.String("any")
		case llm.ToolChoiceTool:
			if tc.Name == "" {
				return nil, nil, fmt.Errorf("toolChoice.name: a forced tool choice needs the tool's name")
			}
			w.String("tool")
			w.Key("name")
			w.String(tc.Name)
		default:
			return nil, nil, fmt.Errorf("toolChoice.mode: %q is not auto, none, required or tool", tc.Mode)
		}
		w.EndObject()
	}
	if req.Temperature != nil {
		w.Key("temperature")
		w.Float(*req.Temperature)
	}
	if len(req.Stop) > 0 {
		w.StringList("stop_sequences", req.Stop)
	}
	if stream {
		w.Key("stream")
		w.Bool(true)
	}
	w.EndObject()
	return w.B, w.Spans, nil
}

// historyTools returns the names of the tools the history's calls and
// results mention, in order of first appearance, or nil when there are none.
func historyTools(req *llm.Request) []string {
	var names []string
	seen := map[string]bool{}
	add := func(n string) {
		if n == "" {
			n = "tool"
		}
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	for _, m := range req.Messages {
		for _, tc := range m.ToolCalls {
			add(tc.Name)
		}
		if m.Role == llm.RoleTool {
			add(m.ToolName)
		}
	}
	return names
}
