package wire

import (
	"encoding/json"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/llm"
)

func TestArgsShapes(t *testing.T) {
	tests := []struct {
		name      string
		call      llm.ToolCall
		obj, text string
	}{
		{"object", llm.ToolCall{Args: json.RawMessage(`{"q":"disk"}`)}, `{"q":"disk"}`, `{"q":"disk"}`},
		{"nothing", llm.ToolCall{}, `{}`, `{}`},
		{"refused text", llm.ToolCall{Args: json.RawMessage(`"{\"q\":"`), ArgsError: "arguments are not valid JSON"}, `{}`, `{"q":`},
	}
	for _, tt := range tests {
		if got := string(ArgsObject(tt.call)); got != tt.obj {
			t.Errorf("%s: ArgsObject = %s, want %s", tt.name, got, tt.obj)
		}
		if got := ArgsText(tt.call); got != tt.text {
			t.Errorf("%s: ArgsText = %s, want %s", tt.name, got, tt.text)
		}
	}
}
