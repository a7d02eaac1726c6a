// This file holds the stream accumulator for Messages API events and the
// decoder of a whole (non-streamed) message.

package anthropic

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/llm"
)

type apiUsage struct {
	InputTokens              *int `json:"input_tokens"`
	OutputTokens             *int `json:"output_tokens"`
	CacheCreationInputTokens *int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     *int `json:"cache_read_input_tokens"`
}

type block struct {
	Type  string          `json:"type"`
	Text  string          `json:"text"`
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

type message struct {
	ID         string    `json:"id"`
	Model      string    `json:"model"`
	Content    []block   `json:"content"`
	StopReason *string   `json:"stop_reason"`
	Usage      *apiUsage `json:"usage"`
}

// event is the union of the stream events the accumulator reads.
type event struct {
	Type         string          `json:"type"`
	Index        *int            `json:"index"`
	Message      *message        `json:"message"`
	ContentBlock *block          `json:"content_block"`
	Delta        *delta          `json:"delta"`
	Usage        *apiUsage       `json:"usage"`
	Error        json.RawMessage `json:"error"`
}

type delta struct {
	Type        string  `json:"type"`
	Text        string  `json:"text"`
	PartialJSON string  `json:"partial_json"`
	StopReason  *string `json:"stop_reason"`
}

// blockAcc is one content block being assembled.
type blockAcc struct {
	typ      string
	id, name string
	start    json.RawMessage // input from content_block_start
	partial  []byte
	gotDelta bool
}

// accumulator assembles one streamed message.
type accumulator struct {
	blocks    []*blockAcc
	byIndex   map[int]*blockAcc
	text      strings.Builder
	stop      string
	usage     llm.Usage
	id, model string
	started   bool
	done      bool // message_stop seen
	errBody   []byte
}

var errStreamError = errors.New("the stream carried an error event")

// feed reads one SSE event (name and data) and returns any text delta.
// Unknown event types are ignored; a data payload that is not JSON is an error.
func (a *accumulator) feed(name string, data []byte) (string, error) {
	t := bytes.TrimSpace(data)
	if len(t) == 0 {
		return "", nil
	}
	var ev event
	if err := json.Unmarshal(t, &ev); err != nil {
		return "", err
	}
	typ := ev.Type
	if typ == "" {
		typ = name
	}
	switch typ {
	case "error":
		a.errBody = bytes.Clone(t)
		return "", errStreamError
	case "message_start":
		a.started = true
		if ev.Message != nil {
			a.id, a.model = ev.Message.ID, ev.Message.Model
			a.addUsage(ev.Message.Usage)
		}
	case "content_block_start":
		b := &blockAcc{}
		if ev.ContentBlock != nil {
			b.typ, b.id, b.name, b.start = ev.ContentBlock.Type, ev.ContentBlock.ID, ev.ContentBlock.Name, ev.ContentBlock.Input
		}
		a.blocks = append(a.blocks, b)
		if ev.Index != nil {
			if a.byIndex == nil {
				a.byIndex = map[int]*blockAcc{}
			}
			a.byIndex[*ev.Index] = b
		}
		if ev.ContentBlock != nil && ev.ContentBlock.Type == "text" && ev.ContentBlock.Text != "" {
			a.text.WriteString(ev.ContentBlock.Text)
			return ev.ContentBlock.Text, nil
		}
	case "content_block_delta":
		var d delta
		if ev.Delta != nil {
			d = *ev.Delta
		}
		b := a.block(ev.Index)
		switch d.Type {
		case "text_delta":
			a.text.WriteString(d.Text)
			return d.Text, nil
		case "input_json_delta":
			if b != nil {
				b.partial = append(b.partial, d.PartialJSON...)
				b.gotDelta = true
			}
		}
	case "message_delta":
		var d delta
		if ev.Delta != nil {
			d = *ev.Delta
		}
		if d.StopReason != nil {
			a.stop = *d.StopReason
		}
		a.addUsage(ev.Usage)
	case "message_stop":
		a.done = true
	}
	return "", nil
}

// block finds the block an event names by index, or by position (the last
// block) when the index is missing or unknown.
func (a *accumulator) block(idx *int) *blockAcc {
	if idx != nil {
		if b, ok := a.byIndex[*idx]; ok {
			return b
		}
	}
	if n := len(a.blocks); n > 0 {
		return a.blocks[n-1]
	}
	return nil
}

// addUsage merges counts: message_start brings input and cache counts,
// message_delta the cumulative output (and sometimes input) count.
func (a *accumulator) addUsage(u *apiUsage) {
	if u == nil {
		return
	}
	a.usage.Reported = true
	if u.InputTokens != nil && *u.InputTokens > 0 {
		a.usage.Input = *u.InputTokens
	}
	if u.OutputTokens != nil {
		a.usage.Output = *u.OutputTokens
	}
	if u.CacheReadInputTokens != nil && *u.CacheReadInputTokens > 0 {
		a.usage.CacheRead = *u.CacheReadInputTokens
	}
	if u.CacheCreationInputTokens != nil && *u.CacheCreationInputTokens > 0 {
		a.usage.CacheWrite = *u.CacheCreationInputTokens
	}
}

// result builds the response. A tool_use block's arguments are the
// concatenated partial_json; the start block's input is used only when no
// delta came.
func (a *accumulator) result(ids func() string) *llm.Response {
	resp := &llm.Response{Content: a.text.String(), Usage: a.usage, RawStopReason: a.stop, Model: a.model, ProviderRef: a.id}
	for _, b := range a.blocks {
		if b.typ != "tool_use" { // server_tool_use runs at the provider: not ours to dispatch
			continue
		}
		tc := llm.ToolCall{ID: b.id, Name: b.name}
		if tc.ID == "" {
			tc.ID = ids()
		}
		raw := b.partial
		if !b.gotDelta {
			raw = b.start
		}
		tc.Args, tc.ArgsError = llm.ParseArgs(raw)
		resp.ToolCalls = append(resp.ToolCalls, tc)
	}
	resp.StopReason = stopReason(a.stop, len(resp.ToolCalls) > 0)
	return resp
}

// stopReason maps the API's stop_reason to the project's words.
func stopReason(raw string, hasCalls bool) llm.StopReason {
	switch raw {
	case "end_turn", "stop_sequence":
		if hasCalls {
			return llm.StopToolUse
		}
		return llm.StopEnd
	case "tool_use":
		return llm.StopToolUse
	case "max_tokens", "model_context_window_exceeded":
		return llm.StopMaxTokens
	case "refusal":
		return llm.StopContentFilter
	}
	if hasCalls {
		return llm.StopToolUse
	}
	return llm.StopOther
}

// decodeMessage reads a whole message body into an accumulator's result.
func decodeMessage(m *message, ids func() string) *llm.Response {
	a := &accumulator{id: m.ID, model: m.Model}
	for _, b := range m.Content {
		acc := &blockAcc{typ: b.Type, id: b.ID, name: b.Name, start: b.Input}
		a.blocks = append(a.blocks, acc)
		if b.Type == "text" {
			a.text.WriteString(b.Text)
		}
	}
	if m.StopReason != nil {
		a.stop = *m.StopReason
	}
	a.addUsage(m.Usage)
	return a.result(ids)
}
