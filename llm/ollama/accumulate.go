// This file holds the NDJSON stream accumulator for /api/chat frames; a
// non-streamed reply is the same frame, read once.

package ollama

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/llm"
)

type frame struct {
	Model   string `json:"model"`
	Message struct {
		Content   string `json:"content"`
		ToolCalls []struct {
			ID       string `json:"id"`
			Function struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			} `json:"function"`
		} `json:"tool_calls"`
	} `json:"message"`
	Done            bool            `json:"done"`
	DoneReason      string          `json:"done_reason"`
	PromptEvalCount *int            `json:"prompt_eval_count"`
	EvalCount       *int            `json:"eval_count"`
	Error           json.RawMessage `json:"error"`
}

// accumulator assembles one reply from its frames.
type accumulator struct {
	text    strings.Builder
	calls   []llm.ToolCall
	model   string
	reason  string
	usage   llm.Usage
	done    bool
	errBody []byte
	ids     func() string
}

var errStreamError = errors.New("the stream carried an error")

// feed reads one frame and returns its text delta. Tool calls arrive
// whole; each is completed (id, arguments) as soon as it is read.
func (a *accumulator) feed(line []byte) (string, error) {
	var f frame
	if err := json.Unmarshal(line, &f); err != nil {
		return "", err
	}
	if len(f.Error) > 0 && string(f.Error) != "null" {
		a.errBody = bytes.Clone(line)
		return "", errStreamError
	}
	if a.model == "" {
		a.model = f.Model
	}
	a.text.WriteString(f.Message.Content)
	for _, tc := range f.Message.ToolCalls {
		call := llm.ToolCall{ID: tc.ID, Name: tc.Function.Name}
		if call.ID == "" {
			call.ID = a.ids()
		}
		call.Args, call.ArgsError = arguments(tc.Function.Arguments)
		a.calls = append(a.calls, call)
	}
	if f.Done {
		a.done = true
		a.reason = f.DoneReason
		if f.PromptEvalCount != nil || f.EvalCount != nil {
			a.usage.Reported = true
			if f.PromptEvalCount != nil {
				a.usage.Input = *f.PromptEvalCount
			}
			if f.EvalCount != nil {
				a.usage.Output = *f.EvalCount
			}
		}
	}
	return f.Message.Content, nil
}

// arguments reads Ollama's arguments: an object is kept as sent; a string
// holding JSON is parsed; anything else is raw with an ArgsError.
func arguments(raw json.RawMessage) (json.RawMessage, string) {
	t := bytes.TrimSpace(raw)
	if len(t) > 0 && t[0] == '"' {
		var s string
		if json.Unmarshal(t, &s) == nil {
			return llm.ParseArgs([]byte(s))
		}
	}
	return llm.ParseArgs(t)
}

func (a *accumulator) result() *llm.Response {
	resp := &llm.Response{Content: a.text.String(), ToolCalls: a.calls, Usage: a.usage, RawStopReason: a.reason, Model: a.model}
	switch {
	case a.reason == "length":
		resp.StopReason = llm.StopMaxTokens
	case len(a.calls) > 0:
		resp.StopReason = llm.StopToolUse
	case a.reason == "stop" || a.reason == "":
		resp.StopReason = llm.StopEnd
	default:
		resp.StopReason = llm.StopOther
	}
	return resp
}
