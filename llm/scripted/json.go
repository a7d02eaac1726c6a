// This file holds the JSON form of scripted replies (documented in doc.go).

package scripted

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/internal/wire"
)

type replyJSON struct {
	Content    string          `json:"content,omitempty"`
	ToolCalls  []toolCallJSON  `json:"toolCalls,omitempty"`
	Usage      *usageJSON      `json:"usage,omitempty"`
	StopReason llm.StopReason  `json:"stopReason,omitempty"`
	Error      json.RawMessage `json:"error,omitempty"`
	Delay      string          `json:"delay,omitempty"`
}

// toolCallJSON checks a scripted call's keys strictly before llm.ToolCall reads it.
type toolCallJSON struct {
	raw json.RawMessage
}

var toolCallKeys = map[string]bool{"id": true, "name": true, "args": true, "argsText": true, "argsError": true}

// UnmarshalJSON refuses keys a tool call does not have, then keeps the bytes.
func (t *toolCallJSON) UnmarshalJSON(data []byte) error {
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(data, &keys); err != nil {
		return err
	}
	for k := range keys {
		if !toolCallKeys[k] {
			return fmt.Errorf("unknown key %q (a tool call has id, name, args, argsText)", k)
		}
	}
	t.raw = data
	return nil
}

// MarshalJSON writes the kept bytes back.
func (t toolCallJSON) MarshalJSON() ([]byte, error) { return t.raw, nil }

type usageJSON struct {
	Input      int   `json:"input"`
	Output     int   `json:"output"`
	CacheRead  int   `json:"cacheRead,omitempty"`
	CacheWrite int   `json:"cacheWrite,omitempty"`
	Reasoning  int   `json:"reasoning,omitempty"`
	Reported   *bool `json:"reported,omitempty"`
}

type errorJSON struct {
	Kind       llm.ErrorKind `json:"kind"`
	Message    string        `json:"message"`
	Status     int           `json:"status,omitempty"`
	RetryAfter string        `json:"retryAfter,omitempty"`
	Retryable  *bool         `json:"retryable,omitempty"`
	Resumable  *bool         `json:"resumable,omitempty"`
}

var stopReasons = map[llm.StopReason]bool{
	llm.StopEnd: true, llm.StopToolUse: true, llm.StopMaxTokens: true, llm.StopContentFilter: true, llm.StopOther: true,
}

var errorKinds = map[llm.ErrorKind]bool{
	llm.KindCanceled: true, llm.KindUnreachable: true, llm.KindAuth: true, llm.KindRateLimit: true,
	llm.KindTimeout: true, llm.KindContextOverflow: true, llm.KindModelMissing: true,
	llm.KindServer: true, llm.KindBadRequest: true, llm.KindUnknown: true,
}

// strictUnmarshal decodes data into v refusing unknown keys and trailing data.
func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("unexpected data after the value")
	}
	return nil
}

// UnmarshalJSON reads one reply in the JSON form of the package doc. Its
// errors name the offending key.
func (r *Reply) UnmarshalJSON(data []byte) error {
	var j replyJSON
	if err := strictUnmarshal(data, &j); err != nil {
		return fmt.Errorf("reply: %w", err)
	}
	out := Reply{Content: j.Content, StopReason: j.StopReason}
	for i, raw := range j.ToolCalls {
		var tc llm.ToolCall
		if err := json.Unmarshal(raw.raw, &tc); err != nil {
			return fmt.Errorf("reply: toolCalls[%d]: %w", i, err)
		}
		if tc.Name == "" {
			return fmt.Errorf("reply: toolCalls[%d].name: a tool call needs a name", i)
		}
		out.ToolCalls = append(out.ToolCalls, tc)
	}
	if j.StopReason != "" && !stopReasons[j.StopReason] {
		return fmt.Errorf("reply: stopReason: %q is not one of stop, tool_use, max_tokens, content_filter, other", j.StopReason)
	}
	if j.Usage != nil {
		u := llm.Usage{Input: j.Usage.Input, Output: j.Usage.Output, CacheRead: j.Usage.CacheRead, CacheWrite: j.Usage.CacheWrite, Reasoning: j.Usage.Reasoning, Reported: true}
		if j.Usage.Reported != nil {
			u.Reported = *j.Usage.Reported
		}
		if u.Input < 0 || u.Output < 0 || u.CacheRead < 0 || u.CacheWrite < 0 || u.Reasoning < 0 {
			return errors.New("reply: usage: token counts cannot be negative")
		}
		out.Usage = &u
	}
	if j.Delay != "" {
		d, err := time.ParseDuration(j.Delay)
		if err != nil || d < 0 {
			return fmt.Errorf("reply: delay: %q is not a non-negative Go duration such as \"250ms\"", j.Delay)
		}
		out.Delay = d
	}
	if len(j.Error) > 0 {
		e, err := parseError(j.Error)
		if err != nil {
			return fmt.Errorf("reply: error: %w", err)
		}
		out.Err = e
	}
	*r = out
	return nil
}

func parseError(raw json.RawMessage) (*llm.Error, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if s == "" {
			return nil, errors.New("the error sentence is empty")
		}
		_, res := wire.DefaultPolicy(llm.KindUnknown)
		return &llm.Error{Provider: providerName, Kind: llm.KindUnknown, Resumable: res, Message: s}, nil
	}
	var j errorJSON
	if err := strictUnmarshal(raw, &j); err != nil {
		return nil, err
	}
	if !errorKinds[j.Kind] {
		return nil, fmt.Errorf("kind: %q is not an llm error kind (canceled, unreachable, auth, rate-limit, timeout, context-overflow, model-missing, server, bad-request, unknown)", j.Kind)
	}
	if j.Message == "" {
		return nil, errors.New("message: say what the scripted failure is")
	}
	retry, res := wire.DefaultPolicy(j.Kind)
	if j.Retryable != nil {
		retry = *j.Retryable
	}
	if j.Resumable != nil {
		res = *j.Resumable
	}
	e := &llm.Error{Provider: providerName, Kind: j.Kind, Status: j.Status, Retryable: retry, Resumable: res, Message: j.Message}
	if j.RetryAfter != "" {
		d, err := time.ParseDuration(j.RetryAfter)
		if err != nil || d < 0 {
			return nil, fmt.Errorf("retryAfter: %q is not a non-negative Go duration", j.RetryAfter)
		}
		e.RetryAfter = d
	}
	return e, nil
}

// MarshalJSON writes the reply in the JSON form read by UnmarshalJSON. A
// non-*llm.Error Err is written as its sentence.
func (r Reply) MarshalJSON() ([]byte, error) {
	j := replyJSON{Content: r.Content, StopReason: r.StopReason}
	for _, tc := range r.ToolCalls {
		b, err := json.Marshal(tc)
		if err != nil {
			return nil, err
		}
		j.ToolCalls = append(j.ToolCalls, toolCallJSON{raw: b})
	}
	if r.Usage != nil {
		rep := r.Usage.Reported
		j.Usage = &usageJSON{Input: r.Usage.Input, Output: r.Usage.Output, CacheRead: r.Usage.CacheRead, CacheWrite: r.Usage.CacheWrite, Reasoning: r.Usage.Reasoning}
		if !rep {
			j.Usage.Reported = &rep
		}
	}
	if r.Delay > 0 {
		j.Delay = r.Delay.String()
	}
	if r.Err != nil {
		var le *llm.Error
		var v any = r.Err.Error()
		if errors.As(r.Err, &le) {
			ej := errorJSON{Kind: le.Kind, Message: le.Message, Status: le.Status}
			if le.RetryAfter > 0 {
				ej.RetryAfter = le.RetryAfter.String()
			}
			retry, res := wire.DefaultPolicy(le.Kind)
			if le.Retryable != retry {
				ej.Retryable = &le.Retryable
			}
			if le.Resumable != res {
				ej.Resumable = &le.Resumable
			}
			v = ej
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		j.Error = b
	}
	return json.Marshal(j)
}

// ParseReplies reads a JSON array of replies. Errors name the reply by
// index and the key at fault, e.g. "replies[2]: reply: delay: …".
func ParseReplies(data []byte) ([]Reply, error) {
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		return nil, fmt.Errorf("replies: want a JSON array of reply objects: %w", err)
	}
	out := make([]Reply, len(raws))
	for i, raw := range raws {
		if err := out[i].UnmarshalJSON(raw); err != nil {
			return nil, fmt.Errorf("replies[%d]: %w", i, err)
		}
	}
	return out, nil
}
