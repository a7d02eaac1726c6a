// This file holds the request-body pieces more than one encoder writes the
// same way: a system message, a tool list with its spans, a function tool,
// a tool's schema, a string list and the sampling settings.

package wire

import (
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/llm"
)

// OpenSchema is the schema sent for a tool that declares none, by the
// clients whose APIs want "properties" present.
const OpenSchema = `{"type":"object","properties":{}}`

// Field writes key with the string value s.
func (w *Writer) Field(key, s string) {
	w.Key(key)
	w.String(s)
}

// StringList writes key with ss as an array of strings.
func (w *Writer) StringList(key string, ss []string) {
	w.Key(key)
	w.BeginArray()
	for _, s := range ss {
		w.String(s)
	}
	w.EndArray()
}

// SystemMessage writes {"role":role,"content":segs} as one array element,
// with a span per segment.
func (w *Writer) SystemMessage(role string, segs []llm.Segment) {
	w.BeginObject()
	w.Field("role", role)
	w.Key("content")
	w.Segments(segs)
	w.EndObject()
}

// Tools writes "tools" as an array with one element per tool, written by
// one, and records each element as the tool's schema span. It stops at the
// first error one returns.
func (w *Writer) Tools(tools []llm.ToolSchema, one func(t *llm.ToolSchema) error) error {
	w.Key("tools")
	w.BeginArray()
	for i := range tools {
		t := &tools[i]
		at := w.Elem()
		if err := one(t); err != nil {
			return err
		}
		w.AddSpan(toolUnit(*t), llm.SpanToolSchema, at, w.Mark())
	}
	w.EndArray()
	return nil
}

// Schema writes key with t's input schema, or empty when it has none. It
// refuses a schema that is not JSON, naming the tool.
func (w *Writer) Schema(key string, t *llm.ToolSchema, empty string) error {
	w.Key(key)
	s := t.InputSchema
	if len(s) == 0 {
		s = []byte(empty)
	}
	if err := w.Raw(s); err != nil {
		return fmt.Errorf("tool %q: inputSchema: %w", t.Name, err)
	}
	return nil
}

// FunctionTool writes t in the {"type":"function","function":{...}} shape
// shared by Chat Completions and Ollama: name, description when set, and
// parameters (OpenSchema when none is declared).
func (w *Writer) FunctionTool(t *llm.ToolSchema) error {
	w.BeginObject()
	w.Field("type", "function")
	w.Key("function")
	w.BeginObject()
	w.Field("name", t.Name)
	if t.Description != "" {
		w.Field("description", t.Description)
	}
	if err := w.Schema("parameters", t, OpenSchema); err != nil {
		return err
	}
	w.EndObject()
	w.EndObject()
	return nil
}

// Sampling writes the request's temperature, max tokens (under maxKey),
// stop list and seed, each only when set, in that order.
func (w *Writer) Sampling(req *llm.Request, maxKey string) {
	if req.Temperature != nil {
		w.Key("temperature")
		w.Float(*req.Temperature)
	}
	if req.MaxTokens > 0 {
		w.Key(maxKey)
		w.Int(int64(req.MaxTokens))
	}
	if len(req.Stop) > 0 {
		w.StringList("stop", req.Stop)
	}
	if req.Seed != nil {
		w.Key("seed")
		w.Int(*req.Seed)
	}
}

// StartBody returns a writer holding the opening of a request body for req:
// {"model":model, with the object left open. The writer has room for about
// the bytes req will take and for one span a unit, so a long conversation's
// body is not grown by doubling on every call.
func StartBody(req *llm.Request, model string) *Writer {
	w := NewWriter(bodySize(req))
	w.Spans = spanList(req)
	w.BeginObject()
	w.Field("model", model)
	return w
}

// bodySize is a little more than the bytes an encoding of req takes when
// nothing in it needs escaping: its texts and arguments, and a few dozen
// bytes of keys and punctuation for each message, call and tool. Text that
// needs escaping makes the body at most one growth longer.
func bodySize(req *llm.Request) int {
	n := 1024
	for _, s := range req.System {
		n += len(s.Text) + 32
	}
	for _, m := range req.Messages {
		n += len(m.Content) + len(m.ToolCallID) + len(m.ToolName) + 64
		for _, c := range m.ToolCalls {
			n += len(c.ID) + len(c.Name) + len(c.Args) + 96
		}
	}
	for _, t := range req.Tools {
		n += len(t.Name) + len(t.Description) + len(t.InputSchema) + 96
	}
	return n
}

// OpenMessages writes "messages" and opens its array, starting it with a
// system message of role when the system text is not empty.
func (w *Writer) OpenMessages(role string, system []llm.Segment) {
	w.Key("messages")
	w.BeginArray()
	if llm.SystemText(system) != "" {
		w.SystemMessage(role, system)
	}
}

// toolUnit returns the unit id recorded for a tool's span: its Unit, or
// "tool/<Name>" when that is empty (as llm.ToolSchema documents).
func toolUnit(t llm.ToolSchema) string {
	if t.Unit != "" {
		return t.Unit
	}
	return "tool/" + t.Name
}
