// This file holds the conversation shapes: roles, messages, tool calls and
// tool schemas, with the one rule for reading a model's tool arguments.

package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Role says who wrote a message.
type Role string

// The four roles a message can have.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Message is one turn of the conversation sent to the model.
//
// A tool result has Role RoleTool, the ToolCallID it answers and the
// ToolName that produced it; IsError marks a result that reports a failure
// (Anthropic sends it as is_error). An assistant turn may carry ToolCalls
// besides, or instead of, Content. Unit names the context unit the message
// stands for (for example "history/3"): it is never sent, only used to
// record the byte span of the message in the request body.
type Message struct {
	Role       Role       `json:"role"`
	Content    string     `json:"content,omitempty"`
	ToolCallID string     `json:"toolCallId,omitempty"`
	ToolName   string     `json:"toolName,omitempty"`
	IsError    bool       `json:"isError,omitempty"`
	ToolCalls  []ToolCall `json:"toolCalls,omitempty"`
	Unit       string     `json:"unit,omitempty"`
}

// ToolCall is one whole call the model asked for.
//
// Args holds the arguments as the model sent them, always as valid JSON so
// that every record holding a call can be encoded. When they are a JSON
// object, Args is that object ({} when the model sent nothing). When they
// are not — truncated JSON, a bare string, an array — ArgsError says what
// is wrong and Args is a JSON string whose value is the model's text byte
// for byte, so the tool layer reports the problem to the model instead of
// running the tool on {}, and the refused text stays on record. [ParseArgs]
// builds both; [ToolCall.RawArgs] gives the model's text back.
type ToolCall struct {
	ID        string
	Name      string
	Args      json.RawMessage
	ArgsError string
}

// toolCallJSON is ToolCall's JSON form. Object arguments go under "args";
// rejected raw text (ArgsError set) goes under "argsText" as a string,
// so the value round-trips exactly and the document stays valid JSON
// (invalid UTF-8 in such text becomes U+FFFD, as in any JSON string).
type toolCallJSON struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Args      json.RawMessage `json:"args,omitempty"`
	ArgsText  *string         `json:"argsText,omitempty"`
	ArgsError string          `json:"argsError,omitempty"`
}

// MarshalJSON writes the call as {"id","name","args"|"argsText","argsError"}.
func (c ToolCall) MarshalJSON() ([]byte, error) {
	j := toolCallJSON{ID: c.ID, Name: c.Name, ArgsError: c.ArgsError}
	switch {
	case len(c.Args) == 0:
	case c.ArgsError == "" && json.Valid(c.Args):
		j.Args = c.Args
	default:
		s := c.RawArgs()
		j.ArgsText = &s
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads the form written by MarshalJSON. A call read with
// "args" but no "argsError" is checked with [ParseArgs], so a hand-written
// call whose args are not an object still carries an ArgsError.
func (c *ToolCall) UnmarshalJSON(data []byte) error {
	var j toolCallJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return fmt.Errorf("tool call: %w", err)
	}
	if j.Args != nil && j.ArgsText != nil {
		return fmt.Errorf("tool call %q: both args and argsText are set; keep one", j.Name)
	}
	*c = ToolCall{ID: j.ID, Name: j.Name, ArgsError: j.ArgsError}
	switch {
	case j.ArgsText != nil:
		c.Args = quoteArgs([]byte(*j.ArgsText))
		if c.ArgsError == "" {
			c.Args, c.ArgsError = ParseArgs([]byte(*j.ArgsText))
		}
	case j.ArgsError == "":
		c.Args, c.ArgsError = ParseArgs(j.Args)
	default:
		c.Args = quoteArgs(j.Args)
	}
	return nil
}

// ParseArgs applies the one rule for a model's tool arguments: empty or
// all-whitespace text (and JSON null) becomes {}; a JSON object is kept as
// sent (surrounding whitespace trimmed); anything else is described in
// argsError and kept as a JSON string holding the text byte for byte (see
// [ToolCall]). It never fails and never panics.
func ParseArgs(raw []byte) (args json.RawMessage, argsError string) {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || string(t) == "null" {
		return json.RawMessage("{}"), ""
	}
	if !json.Valid(t) {
		var v any
		err := json.Unmarshal(t, &v)
		msg := "arguments are not valid JSON"
		if err != nil {
			msg += ": " + err.Error()
		}
		return quoteArgs(raw), msg
	}
	if t[0] != '{' {
		return quoteArgs(raw), "arguments must be a JSON object, got " + jsonKind(t[0])
	}
	return json.RawMessage(bytes.Clone(t)), ""
}

// quoteArgs encodes refused argument text as a JSON string. Invalid UTF-8
// becomes U+FFFD, as in any JSON string; text read from a JSON response has
// been through that already.
func quoteArgs(raw []byte) json.RawMessage {
	b, _ := json.Marshal(string(raw)) // a Go string always encodes
	return b
}

// RawArgs returns the arguments as the model sent them: the object's text,
// or, for refused arguments, the text held in the JSON string (Args itself
// when a caller built the call by hand with raw text).
func (c ToolCall) RawArgs() string {
	if c.ArgsError != "" {
		var s string
		if json.Unmarshal(c.Args, &s) == nil {
			return s
		}
	}
	return string(c.Args)
}

// jsonKind names the JSON type that starts with b.
func jsonKind(b byte) string {
	switch b {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}

// ToolSchema describes one tool offered to the model. InputSchema must be a
// JSON Schema object. Unit names the context unit recorded for the tool's
// byte span; empty means "tool/<Name>".
type ToolSchema struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"inputSchema,omitempty"`
	Unit        string          `json:"unit,omitempty"`
}
