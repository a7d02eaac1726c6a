// This file holds the witness pointers the fold writes and how one resolves against the record.

package assess

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/honesty/assess"
)

// StatePointer points at path under a state key.
func StatePointer(key, path string) assess.Pointer {
	return assess.Pointer{Kind: assess.PointerState, Key: key, Path: path}
}

// HistoryPointer points at path inside history message index.
func HistoryPointer(index int, path, toolCallID string) assess.Pointer {
	return assess.Pointer{Kind: assess.PointerHistory, Index: &index, Path: path, ToolCallID: toolCallID}
}

// Resolve returns the value pointer p names in in, as plain JSON (objects as map[string]any,
// lists as []any, numbers as float64), and false when it names nothing. It checks a witness
// against the state the fold read; the fold itself never resolves one.
func Resolve(p assess.Pointer, in Input) (any, bool) {
	var root any
	switch p.Kind {
	case assess.PointerState:
		v, ok := in.value(p.Key)
		if !ok {
			return nil, false
		}
		root = v
	case assess.PointerHistory:
		if p.Index == nil || *p.Index < 0 || *p.Index >= len(in.History) {
			return nil, false
		}
		root = in.History[*p.Index]
	default:
		return nil, false
	}
	plain, ok := plainJSON(root)
	if !ok {
		return nil, false
	}
	return walk(plain, p.Path)
}

// value returns the value Input holds under a state key, and false for a key it holds nothing
// under.
func (in Input) value(key string) (any, bool) {
	switch key {
	case state.KeyFindingsLedger.KeyName():
		return in.Findings, in.Findings != nil
	case state.KeyCoverageDeclared.KeyName():
		return in.Coverage, in.Coverage != nil
	case state.KeyHistory.KeyName():
		return in.History, in.History != nil
	case state.KeyArgumentAsk.KeyName():
		return in.ArgumentAsk, in.ArgumentAsk.Waiting != nil || in.ArgumentAsk.Iteration != 0 || in.ArgumentAsk.Fields != nil
	case state.KeyTurnNumber.KeyName():
		return in.Turn, in.Turn >= 1
	case state.KeyUserMessage.KeyName():
		return in.UserMessage, in.UserMessage != ""
	}
	return nil, false
}

// plainJSON returns v as its plain JSON value.
func plainJSON(v any) (any, bool) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, false
	}
	var out any
	if json.Unmarshal(b, &out) != nil {
		return nil, false
	}
	return out, true
}

// walk follows an RFC 6901 pointer through plain JSON values.
func walk(v any, path string) (any, bool) {
	if path == "" {
		return v, true
	}
	if !strings.HasPrefix(path, "/") {
		return nil, false
	}
	for _, tok := range strings.Split(path[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch t := v.(type) {
		case map[string]any:
			next, ok := t[tok]
			if !ok {
				return nil, false
			}
			v = next
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(t) || tok != strconv.Itoa(i) {
				return nil, false
			}
			v = t[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// at builds "/<i>/<field>".
func at(i int, fields ...string) string {
	var b strings.Builder
	b.WriteString("/")
	b.WriteString(strconv.Itoa(i))
	for _, f := range fields {
		b.WriteString("/")
		b.WriteString(f)
	}
	return b.String()
}
