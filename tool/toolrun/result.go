// This file holds how a tool's return value is read and rendered: plain
// data, a tool.Result, or (NewRaw tools only) a result object.

package toolrun

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/tool"
)

// Output is what one execution produced, read but not yet served.
type Output struct {
	// Value is the content to serve: the tool's return value, or the
	// content of a tool.Result or of a raw result object. The coverage
	// recognisers read this value; it is never parsed here.
	Value any
	// Status is the status the tool stated, or empty.
	Status tool.Status
	// Effects holds the "effects" member of a raw result object exactly
	// as written, or nil. The tool package does not interpret it.
	Effects json.RawMessage
	// Wrapped is true when the value came out of a tool.Result or a raw
	// result object rather than being the return value itself.
	Wrapped bool
}

// Text renders a tool's content (an Output's Value, or a value that did not
// come from Execute, such as a resumed pause's input or a refusal) as the
// text served to the model: a string as is, json.RawMessage and []byte as
// their bytes, nil as "null", anything else as compact JSON with HTML
// characters left unescaped. It fails only when the value cannot be
// marshalled.
func Text(v any) (string, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case json.RawMessage:
		return string(x), nil
	case []byte:
		return string(x), nil
	case nil:
		return "null", nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", fmt.Errorf("tool: result content cannot be encoded as JSON: %w", err)
	}
	return string(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))), nil
}

// readTyped reads the return value of a tool made by New: a tool.Result or
// *tool.Result is unwrapped, anything else is data.
func readTyped(v any) (Output, error) {
	switch r := v.(type) {
	case tool.Result:
		return fromResult(r)
	case *tool.Result:
		if r == nil {
			return Output{Value: nil}, nil
		}
		return fromResult(*r)
	}
	return Output{Value: v}, nil
}

func fromResult(r tool.Result) (Output, error) {
	if r.Status != "" && !validStatus(r.Status) {
		return Output{}, fmt.Errorf("tool: result status %q is not one of success, failure, denied, invalid, partial, pending, absent", string(r.Status))
	}
	return Output{Value: r.Content, Status: r.Status, Wrapped: true}, nil
}

// readRaw reads the return value of a tool made by NewRaw. Besides a
// tool.Result, it recognises a result object: a map[string]any, or JSON object
// text in a json.RawMessage, whose keys are a subset of content, effects
// and status, with content present and status (when present) one of the
// seven words. Anything else, a near miss included, is data served as
// written: a foreign result is read, never repaired. From JSON text, a
// string content is unquoted and any other content stays JSON text
// (json.RawMessage), so its bytes are served unchanged.
func readRaw(v any) (Output, error) {
	switch x := v.(type) {
	case tool.Result, *tool.Result:
		return readTyped(v)
	case map[string]any:
		if out, ok := resultObjectFromMap(x); ok {
			return out, nil
		}
	case json.RawMessage:
		if out, ok := resultObjectFromText(x); ok {
			return out, nil
		}
	}
	return Output{Value: v}, nil
}

func resultObjectFromMap(m map[string]any) (Output, bool) {
	content, ok := m["content"]
	if !ok {
		return Output{}, false
	}
	out := Output{Value: content, Wrapped: true}
	for k, v := range m {
		switch k {
		case "content":
		case "status":
			word, isString := v.(string)
			if !isString {
				return Output{}, false
			}
			st, valid := tool.Status(word), validStatus(tool.Status(word))
			if !valid {
				return Output{}, false
			}
			out.Status = st
		case "effects":
			b, err := json.Marshal(v)
			if err != nil {
				return Output{}, false
			}
			out.Effects = b
		default:
			return Output{}, false
		}
	}
	return out, true
}

func resultObjectFromText(text json.RawMessage) (Output, bool) {
	trimmed := bytes.TrimSpace(text)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return Output{}, false
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &members); err != nil {
		return Output{}, false
	}
	content, ok := members["content"]
	if !ok {
		return Output{}, false
	}
	out := Output{Value: content, Wrapped: true}
	if c := bytes.TrimSpace(content); len(c) > 0 && c[0] == '"' {
		var s string
		if err := json.Unmarshal(c, &s); err != nil {
			return Output{}, false
		}
		out.Value = s
	}
	for k, v := range members {
		switch k {
		case "content":
		case "status":
			var word string
			if err := json.Unmarshal(v, &word); err != nil {
				return Output{}, false
			}
			st, valid := tool.Status(word), validStatus(tool.Status(word))
			if !valid {
				return Output{}, false
			}
			out.Status = st
		case "effects":
			out.Effects = append(json.RawMessage(nil), v...)
		default:
			return Output{}, false
		}
	}
	return out, true
}

// Statuses lists the seven statuses in their documented order. The slice
// is fresh on every call.
func Statuses() []tool.Status {
	return []tool.Status{tool.StatusSuccess, tool.StatusFailure, tool.StatusDenied, tool.StatusInvalid, tool.StatusPartial, tool.StatusPending, tool.StatusAbsent}
}

// validStatus reports whether s is one of the seven statuses (the empty
// status is not).
func validStatus(s tool.Status) bool {
	switch s {
	case tool.StatusSuccess, tool.StatusFailure, tool.StatusDenied, tool.StatusInvalid, tool.StatusPartial, tool.StatusPending, tool.StatusAbsent:
		return true
	}
	return false
}
