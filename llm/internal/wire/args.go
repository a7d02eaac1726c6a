// Tool-call arguments in the two shapes the provider APIs send them back in:
// a JSON object, or the model's text inside a JSON string.

package wire

import (
	"bytes"
	"encoding/json"

	"github.com/agentfootprint/agentfootprint-go/llm"
)

// ArgsObject returns the arguments to send back to a provider that needs a
// JSON object (Anthropic's input, Ollama's arguments): Args when it is an
// object, {} otherwise.
func ArgsObject(c llm.ToolCall) json.RawMessage {
	if c.ArgsError != "" || len(bytes.TrimSpace(c.Args)) == 0 {
		return json.RawMessage("{}")
	}
	return c.Args
}

// ArgsText returns the arguments as text for providers that carry them as a
// JSON string (OpenAI's function.arguments): the model's text (see
// llm.ToolCall.RawArgs), or "{}" when there is none.
func ArgsText(c llm.ToolCall) string {
	if len(c.Args) == 0 {
		return "{}"
	}
	return c.RawArgs()
}
