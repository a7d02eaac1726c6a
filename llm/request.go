// This file holds the request a provider receives: system segments,
// messages, tools and sampling options.

package llm

import (
	"encoding/json"
	"slices"
)

// SystemJoiner separates system segments inside the one system string a
// provider receives. Its bytes belong to no unit's span.
const SystemJoiner = "\n\n"

// Segment is one context unit's text inside the system prompt. Unit is the
// id its byte span is recorded under (no span when empty); Kind is the span
// kind, SpanSystemUnit when empty. (The agent sends its time line as a
// message whose unit id is "time-line", so its span kind is SpanMessage.)
type Segment struct {
	Unit string   `json:"unit,omitempty"`
	Kind SpanKind `json:"kind,omitempty"`
	Text string   `json:"text"`
}

// SystemText joins the segments' texts with SystemJoiner, skipping empty
// segments the way every encoder does.
func SystemText(segs []Segment) string {
	n := 0
	out := make([]byte, 0, 64)
	for _, s := range segs {
		if s.Text == "" {
			continue
		}
		if n > 0 {
			out = append(out, SystemJoiner...)
		}
		out = append(out, s.Text...)
		n++
	}
	return string(out)
}

// ToolChoiceMode says whether and how the model must use tools.
type ToolChoiceMode string

// Tool choice modes. The zero value leaves the choice to the provider.
const (
	ToolChoiceDefault  ToolChoiceMode = ""
	ToolChoiceAuto     ToolChoiceMode = "auto"
	ToolChoiceNone     ToolChoiceMode = "none"
	ToolChoiceRequired ToolChoiceMode = "required"
	ToolChoiceTool     ToolChoiceMode = "tool" // the tool named in ToolChoice.Name
)

// ToolChoice constrains tool use. Name is read only with ToolChoiceTool.
type ToolChoice struct {
	Mode ToolChoiceMode `json:"mode,omitempty"`
	Name string         `json:"name,omitempty"`
}

// Request is everything one model call sends. Model may be empty when the
// provider was built with a default model. Temperature and Seed are
// pointers so that "not set" differs from zero; MaxTokens 0 means the
// provider's default (Anthropic requires one: its client supplies a
// default). Providers never modify a Request; an encoder in this module
// writes spans into SpanBuffer's array, which is what that field is for.
type Request struct {
	Model       string       `json:"model,omitempty"`
	System      []Segment    `json:"system,omitempty"`
	Messages    []Message    `json:"messages"`
	Tools       []ToolSchema `json:"tools,omitempty"`
	Temperature *float64     `json:"temperature,omitempty"`
	MaxTokens   int          `json:"maxTokens,omitempty"`
	Stop        []string     `json:"stop,omitempty"`
	ToolChoice  ToolChoice   `json:"toolChoice,omitzero"`
	Seed        *int64       `json:"seed,omitempty"`
	// SpanBuffer, when its capacity is enough, is the array this module's
	// encoders write the request's spans into, so a caller making call
	// after call does not pay for a new span list each time. Exchange.Spans
	// then shares the array: a caller that reuses it copies the spans it
	// keeps first. It is never sent, encoded or cloned.
	SpanBuffer []Span `json:"-"`
}

// Clone returns a deep copy of r, so a recorder can keep a request the
// caller goes on changing.
func (r *Request) Clone() *Request {
	if r == nil {
		return nil
	}
	c := *r
	c.System = slices.Clone(r.System)
	c.Messages = make([]Message, len(r.Messages))
	for i, m := range r.Messages {
		c.Messages[i] = m
		if m.ToolCalls != nil {
			c.Messages[i].ToolCalls = cloneCalls(m.ToolCalls)
		}
	}
	if r.Tools != nil {
		c.Tools = make([]ToolSchema, len(r.Tools))
		for i, t := range r.Tools {
			c.Tools[i] = t
			c.Tools[i].InputSchema = slices.Clone(t.InputSchema)
		}
	}
	if r.Temperature != nil {
		v := *r.Temperature
		c.Temperature = &v
	}
	if r.Seed != nil {
		v := *r.Seed
		c.Seed = &v
	}
	c.Stop = slices.Clone(r.Stop)
	c.SpanBuffer = nil
	return &c
}

func cloneCalls(in []ToolCall) []ToolCall {
	out := make([]ToolCall, len(in))
	for i, tc := range in {
		out[i] = tc
		out[i].Args = json.RawMessage(slices.Clone([]byte(tc.Args)))
	}
	return out
}
