// This file makes the always-present lists of events and meta encode as []
// when the emitter left them nil, so the wire never shows null for a list.

package event

import "encoding/json"

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// MarshalJSON writes Meta with compositionPath as [] when it is nil.
func (m Meta) MarshalJSON() ([]byte, error) {
	type plain Meta
	p := plain(m)
	p.CompositionPath = nonNil(p.CompositionPath)
	return json.Marshal(p)
}

// MarshalJSON writes the payload with tools as [] when it is nil.
func (p LLMRequestPayload) MarshalJSON() ([]byte, error) {
	type plain LLMRequestPayload
	q := plain(p)
	q.Tools = nonNil(q.Tools)
	return json.Marshal(q)
}

// MarshalJSON writes the payload with issues as [] when it is nil.
func (p ArgsInvalid) MarshalJSON() ([]byte, error) {
	type plain ArgsInvalid
	q := plain(p)
	q.Issues = nonNil(q.Issues)
	return json.Marshal(q)
}

// MarshalJSON writes the payload with reasons and checked as [] when nil.
func (p AnswerAssessedPayload) MarshalJSON() ([]byte, error) {
	type plain AnswerAssessedPayload
	q := plain(p)
	q.Reasons = nonNil(q.Reasons)
	q.Checked = nonNil(q.Checked)
	return json.Marshal(q)
}

// MarshalJSON writes the payload with active and dropped as [] when nil.
func (p ContextEvaluatedPayload) MarshalJSON() ([]byte, error) {
	type plain ContextEvaluatedPayload
	q := plain(p)
	q.Active = nonNil(q.Active)
	q.Dropped = nonNil(q.Dropped)
	return json.Marshal(q)
}
