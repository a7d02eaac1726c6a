// This file reads event payloads the same way whether they arrive typed,
// from a live run, or as raw JSON, from a decoded run record.

package otelexport

import (
	"encoding/json"

	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/event"
)

// decode returns p as a T: directly when it is one, else through its JSON
// encoding (a record's payloads are json.RawMessage; some live payloads are
// types of other packages with the same keys). ok is false when p does not
// fit T.
func decode[T any](p any) (v T, ok bool) {
	switch x := p.(type) {
	case T:
		return x, true
	case *T:
		if x != nil {
			return *x, true
		}
		return v, false
	case json.RawMessage:
		return v, json.Unmarshal(x, &v) == nil
	case []byte:
		return v, json.Unmarshal(x, &v) == nil
	case nil:
		return v, false
	}
	b, err := json.Marshal(p)
	if err != nil {
		return v, false
	}
	return v, json.Unmarshal(b, &v) == nil
}

// coverageRow is the part of a coverage_declared or absent payload the
// spans use: the row's kind, call, and item counts.
type coverageRow struct {
	Kind, ToolCallID, LookedFor      string
	Checked, NotChecked, CannotCover int
}

// rowOf reads a coverage row: directly from a live coverage.DeclaredCoverage,
// else from its JSON (a record's payloads, and the absent event's, are raw).
func rowOf(p any) (coverageRow, bool) {
	switch v := p.(type) {
	case coverage.DeclaredCoverage:
		return coverageRow{string(v.Kind), v.ToolCallID, v.LookedFor, len(v.Checked), len(v.NotChecked), len(v.CannotCover)}, true
	case *coverage.DeclaredCoverage:
		if v != nil {
			return rowOf(*v)
		}
		return coverageRow{}, false
	}
	w, ok := decode[struct {
		Kind        string            `json:"kind"`
		ToolCallID  string            `json:"toolCallId"`
		LookedFor   string            `json:"lookedFor"`
		Checked     []json.RawMessage `json:"checked"`
		NotChecked  []json.RawMessage `json:"notChecked"`
		CannotCover []json.RawMessage `json:"cannotCover"`
	}](p)
	return coverageRow{w.Kind, w.ToolCallID, w.LookedFor, len(w.Checked), len(w.NotChecked), len(w.CannotCover)}, ok
}

// semanticsRow is the part of a semantics_declared payload the spans use.
type semanticsRow struct {
	ToolCallID string `json:"toolCallId"`
}

// assessment is the part of turn_end's answerAssessment the spans use.
type assessment struct {
	Assessment string `json:"assessment"`
	Standing   string `json:"standing"`
	Reasons    []struct {
		Reason string `json:"reason"`
	} `json:"reasons"`
}

// reasonKinds lists an assessment's reason kinds in order.
func (a assessment) reasonKinds() []string {
	out := make([]string, 0, len(a.Reasons))
	for _, r := range a.Reasons {
		out = append(out, r.Reason)
	}
	return out
}

// callID returns the tool call an event belongs to, or "" for an event that
// belongs to the turn.
func callID(e event.Event) string {
	switch e.Type {
	case event.ToolsStart:
		p, _ := decode[event.ToolsStartPayload](e.Payload)
		return p.ToolCallID
	case event.ToolsResult:
		p, _ := decode[event.ToolsResultPayload](e.Payload)
		return p.ToolCallID
	case event.ToolsCoverageDeclared, event.ToolsAbsent:
		p, _ := rowOf(e.Payload)
		return p.ToolCallID
	case event.ToolsSemanticsDeclared:
		p, _ := decode[semanticsRow](e.Payload)
		return p.ToolCallID
	case event.ValidationArgsInvalid:
		p, _ := decode[event.ArgsInvalid](e.Payload)
		return p.ToolCallID
	case event.ToolsResultRefused:
		p, _ := decode[event.ResultRefused](e.Payload)
		return p.ToolCallID
	case event.ToolsProgress:
		p, _ := decode[event.ToolsProgressPayload](e.Payload)
		return p.ToolCallID
	}
	return ""
}
