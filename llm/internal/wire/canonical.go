// This file holds the canonical JSON encoding of an llm.Request: the
// scripted provider's "wire", with the same span rules as the real clients.

package wire

import (
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/llm"
)

// Canonical encodes req as the project's own canonical JSON with spans.
// Keys come in a fixed order; optional fields are omitted when unset. It
// refuses a tool whose InputSchema is not JSON, naming the tool.
func Canonical(req *llm.Request) ([]byte, []llm.Span, error) {
	w := NewWriter(512)
	w.Spans = spanList(req)
	w.BeginObject()
	w.Key("model")
	w.String(req.Model)
	if llm.SystemText(req.System) != "" {
		w.Key("system")
		w.Segments(req.System)
	}
	w.Key("messages")
	w.BeginArray()
	for i, m := range req.Messages {
		w.BeginObject()
		w.Key("role")
		w.String(string(m.Role))
		w.Key("content")
		w.StringSpan(m.Content, m.Unit, llm.SpanMessage)
		if m.ToolCallID != "" {
			w.Key("toolCallId")
			w.String(m.ToolCallID)
		}
		if m.ToolName != "" {
			w.Key("toolName")
			w.String(m.ToolName)
		}
		if m.IsError {
			w.Key("isError")
			w.Bool(true)
		}
		if len(m.ToolCalls) > 0 {
			w.Key("toolCalls")
			w.BeginArray()
			for _, tc := range m.ToolCalls {
				w.BeginObject()
				w.Key("id")
				w.String(tc.ID)
				w.Key("name")
				w.String(tc.Name)
				if tc.ArgsError != "" {
					w.Key("argsText")
					w.String(string(tc.Args))
				} else {
					w.Key("args")
					if err := w.Raw(ArgsObject(tc)); err != nil {
						return nil, nil, fmt.Errorf("messages[%d]: tool call %q args: %w", i, tc.Name, err)
					}
				}
				w.EndObject()
			}
			w.EndArray()
		}
		w.EndObject()
	}
	w.EndArray()
	if len(req.Tools) > 0 {
		err := w.Tools(req.Tools, func(t *llm.ToolSchema) error {
			w.BeginObject()
			w.Field("name", t.Name)
			w.Field("description", t.Description)
			if err := w.Schema("inputSchema", t, `{"type":"object"}`); err != nil {
				return err
			}
			w.EndObject()
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
	}
	if req.ToolChoice.Mode != "" {
		w.Key("toolChoice")
		w.BeginObject()
		w.Key("mode")
		w.String(string(req.ToolChoice.Mode))
		if req.ToolChoice.Name != "" {
			w.Key("name")
			w.String(req.ToolChoice.Name)
		}
		w.EndObject()
	}
	w.Sampling(req, "maxTokens")
	w.EndObject()
	SortSpans(w.Spans)
	return w.B, w.Spans, nil
}

// spanList is the empty span list an encoding of req appends to: the
// caller's SpanBuffer when it has room for spanCount spans, else a new list
// of that size (nil when req has no spans).
func spanList(req *llm.Request) []llm.Span {
	n := spanCount(req)
	switch {
	case n == 0:
		return nil
	case cap(req.SpanBuffer) >= n:
		return req.SpanBuffer[:0]
	}
	return make([]llm.Span, 0, n)
}

// spanCount is how many spans Canonical records for req: one per labelled
// system segment and message and one per tool, so the span list is
// allocated once instead of growing message by message.
func spanCount(req *llm.Request) int {
	n := len(req.Tools)
	for _, s := range req.System {
		if s.Unit != "" && s.Text != "" {
			n++
		}
	}
	for _, m := range req.Messages {
		if m.Unit != "" {
			n++
		}
	}
	return n
}

// SortSpans orders spans by start offset (encoders emit them in order
// already; this keeps the rule explicit).
func SortSpans(sp []llm.Span) {
	for i := 1; i < len(sp); i++ {
		for j := i; j > 0 && sp[j].Start < sp[j-1].Start; j-- {
			sp[j], sp[j-1] = sp[j-1], sp[j]
		}
	}
}
