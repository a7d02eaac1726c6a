// This file holds the stream accumulator: it turns chat.completion.chunk
// frames into text deltas and, at the end, whole tool calls.

package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/llm"
)

// chunk is the part of a chat.completion.chunk the accumulator reads.
type chunk struct {
	ID      string          `json:"id"`
	Model   string          `json:"model"`
	Choices []chunkChoice   `json:"choices"`
	Usage   *usage          `json:"usage"`
	Error   json.RawMessage `json:"error"`
}

type chunkChoice struct {
	Index        int        `json:"index"`
	Delta        chunkDelta `json:"delta"`
	FinishReason *string    `json:"finish_reason"`
}

type chunkDelta struct {
	Content      *string         `json:"content"`
	Refusal      *string         `json:"refusal"`
	ToolCalls    []toolCallDelta `json:"tool_calls"`
	FunctionCall *functionDelta  `json:"function_call"`
}

// functionDelta is the deprecated single function_call some servers and
// older models still send; it becomes an ordinary tool call.
type functionDelta struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// legacyIndex keys the deprecated function_call among the tool calls.
var legacyIndex = -1

func (f *functionDelta) asToolCall() toolCallDelta {
	d := toolCallDelta{Index: &legacyIndex}
	d.Function.Name = f.Name
	d.Function.Arguments = f.Arguments
	return d
}

type toolCallDelta struct {
	Index    *int   `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

type usage struct {
	PromptTokens        int `json:"prompt_tokens"`
	CompletionTokens    int `json:"completion_tokens"`
	PromptTokensDetails *struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
	CompletionTokensDetails *struct {
		ReasoningTokens int `json:"reasoning_tokens"`
	} `json:"completion_tokens_details"`
}

func (u *usage) toLLM() llm.Usage {
	out := llm.Usage{Input: u.PromptTokens, Output: u.CompletionTokens, Reported: true}
	if u.PromptTokensDetails != nil {
		out.CacheRead = u.PromptTokensDetails.CachedTokens
	}
	if u.CompletionTokensDetails != nil {
		out.Reasoning = u.CompletionTokensDetails.ReasoningTokens
	}
	return out
}

// callAcc is one tool call being assembled.
type callAcc struct {
	id, name string
	args     []byte
	object   bool // arguments arrived as a JSON object, not a string
}

// accumulator assembles one streamed reply. Only choice 0 is read.
type accumulator struct {
	content   strings.Builder
	refusal   strings.Builder
	calls     []*callAcc
	byIndex   map[int]*callAcc
	finish    string
	usage     *llm.Usage
	id, model string
	done      bool // [DONE] seen
	errBody   []byte
}

// errStreamError marks a frame that carried an error object; errBody holds it.
var errStreamError = errors.New("the stream carried an error")

// feed reads one SSE data payload and returns any text delta. "[DONE]"
// ends the stream. A frame that is not JSON is an error; unknown fields
// are ignored.
func (a *accumulator) feed(data []byte) (string, error) {
	t := bytes.TrimSpace(data)
	if string(t) == "[DONE]" {
		a.done = true
		return "", nil
	}
	if len(t) == 0 {
		return "", nil
	}
	var c chunk
	if err := json.Unmarshal(t, &c); err != nil {
		return "", err
	}
	if len(c.Error) > 0 && string(c.Error) != "null" {
		a.errBody = bytes.Clone(t)
		return "", errStreamError
	}
	if a.id == "" {
		a.id = c.ID
	}
	if a.model == "" {
		a.model = c.Model
	}
	if c.Usage != nil {
		u := c.Usage.toLLM()
		a.usage = &u
	}
	var text string
	for _, ch := range c.Choices {
		if ch.Index != 0 {
			continue
		}
		if ch.Delta.Content != nil {
			text += *ch.Delta.Content
		}
		if ch.Delta.Refusal != nil {
			// A refusal is what the model said: stream it as text, mark the stop.
			a.refusal.WriteString(*ch.Delta.Refusal)
			text += *ch.Delta.Refusal
		}
		for _, d := range ch.Delta.ToolCalls {
			a.addCall(d)
		}
		if ch.Delta.FunctionCall != nil {
			a.addCall(ch.Delta.FunctionCall.asToolCall())
		}
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			a.finish = *ch.FinishReason
		}
	}
	a.content.WriteString(text)
	return text, nil
}

// addCall applies one tool-call delta. With an index: the first non-empty
// id sticks, and a different non-empty id at the same index starts a new
// call. Without one: a delta naming a function or bringing a new id starts
// a new call; anything else continues the last call.
func (a *accumulator) addCall(d toolCallDelta) {
	if a.byIndex == nil {
		a.byIndex = map[int]*callAcc{}
	}
	var cur *callAcc
	if d.Index != nil {
		cur = a.byIndex[*d.Index]
		if cur != nil && d.ID != "" && cur.id != "" && d.ID != cur.id {
			cur = nil
		}
		if cur == nil {
			cur = &callAcc{}
			a.calls = append(a.calls, cur)
			a.byIndex[*d.Index] = cur
		}
	} else {
		if n := len(a.calls); n > 0 && d.Function.Name == "" && (d.ID == "" || d.ID == a.calls[n-1].id) {
			cur = a.calls[n-1]
		} else {
			cur = &callAcc{}
			a.calls = append(a.calls, cur)
		}
	}
	if cur.id == "" {
		cur.id = d.ID
	}
	if cur.name == "" {
		cur.name = d.Function.Name
	}
	appendArgs(cur, d.Function.Arguments)
}

// appendArgs adds an arguments fragment: a JSON string is unquoted and
// appended; an object (some servers send one) replaces what came before.
func appendArgs(cur *callAcc, raw json.RawMessage) {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || string(t) == "null" {
		return
	}
	if t[0] == '"' {
		var s string
		if json.Unmarshal(t, &s) == nil {
			cur.args = append(cur.args, s...)
		}
		return
	}
	cur.args = append(cur.args[:0], t...)
	cur.object = true
}

// result builds the response from what was accumulated. ids supplies an id
// for calls that never got one.
func (a *accumulator) result(ids func() string) *llm.Response {
	resp := &llm.Response{Content: a.content.String(), RawStopReason: a.finish, Model: a.model, ProviderRef: a.id}
	for _, c := range a.calls {
		if c.name == "" && len(c.args) == 0 {
			continue
		}
		tc := llm.ToolCall{ID: c.id, Name: c.name}
		if tc.ID == "" {
			tc.ID = ids()
		}
		tc.Args, tc.ArgsError = llm.ParseArgs(c.args)
		resp.ToolCalls = append(resp.ToolCalls, tc)
	}
	if a.usage != nil {
		resp.Usage = *a.usage
	}
	if a.refusal.Len() > 0 {
		resp.StopReason = llm.StopContentFilter
		return resp
	}
	resp.StopReason = stopReason(a.finish, len(resp.ToolCalls) > 0)
	return resp
}

// stopReason maps finish_reason to the project's words.
func stopReason(raw string, hasCalls bool) llm.StopReason {
	switch raw {
	case "tool_calls", "function_call":
		return llm.StopToolUse
	case "length":
		return llm.StopMaxTokens
	case "content_filter":
		return llm.StopContentFilter
	case "stop", "eos", "end_turn", "":
		if hasCalls {
			return llm.StopToolUse
		}
		if raw == "" {
			return llm.StopOther
		}
		return llm.StopEnd
	}
	if hasCalls {
		return llm.StopToolUse
	}
	return llm.StopOther
}
