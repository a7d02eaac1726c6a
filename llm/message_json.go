// Reading a Message's JSON without reflection: a stored run's history holds
// every message of the turn, and explain, the lens and a resumed turn read
// them all back.

package llm

import (
	"encoding/json"

	"github.com/agentfootprint/agentfootprint-go/internal/fastjson"
)

// UnmarshalJSON reads a message. The form this module writes (exact member
// names, each once, no nulls) into an empty Message is read by hand; any
// other input, or a Message that already holds something, goes through
// encoding/json, with the same result and the same errors (inside a larger
// document, a type error names the same field and the struct around it).
func (m *Message) UnmarshalJSON(data []byte) error {
	if m.empty() {
		if fast, ok := readMessage(data); ok {
			*m = fast
			return nil
		}
	}
	type plain Message // the same fields, without this method
	return fastjson.NameAs[plain, Message](json.Unmarshal(data, (*plain)(m)))
}

// empty reports whether m holds nothing, so that reading into it cannot
// merge with an earlier value as encoding/json would.
func (m *Message) empty() bool {
	return m.Role == "" && m.Content == "" && m.ToolCallID == "" && m.ToolName == "" &&
		!m.IsError && m.ToolCalls == nil && m.Unit == ""
}

// readMessage reads data in the written form; false when it is not.
func readMessage(data []byte) (Message, bool) {
	var m Message
	r := fastjson.NewReader(data)
	ok := r.Object(func(name []byte) bool {
		var ok bool
		switch string(name) {
		case "role":
			var s string
			s, ok = r.Text()
			m.Role = Role(s)
		case "content":
			m.Content, ok = r.Text()
		case "toolCallId":
			m.ToolCallID, ok = r.Text()
		case "toolName":
			m.ToolName, ok = r.Text()
		case "isError":
			m.IsError, ok = r.Bool()
		case "unit":
			m.Unit, ok = r.Text()
		case "toolCalls":
			m.ToolCalls = []ToolCall{}
			ok = r.Array(func() bool {
				span, ok := r.Span()
				if !ok {
					return false
				}
				var c ToolCall
				if c.UnmarshalJSON(span) != nil {
					return false
				}
				m.ToolCalls = append(m.ToolCalls, c)
				return true
			})
		}
		return ok
	})
	return m, ok && r.Done()
}
