// This file holds the Report: what a scenario run produced, its JSON form for machines and
// its text form for a terminal.

package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/compose"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/honesty/assess"
	"github.com/agentfootprint/agentfootprint-go/honesty/ledger"
	"github.com/agentfootprint/agentfootprint-go/internal/coverread"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// Report is what one scenario run produced. Its JSON form (MarshalJSON) is the
// `scenario run --json` output; WriteText and WriteTranscript are its terminal forms;
// Check compares it with the file's expectations. A Report is read-only once returned.
type Report struct {
	// Scenario and Description repeat the file's name and description.
	Scenario    string
	Description string
	// Question is the person's first message.
	Question string
	// Answer is the last turn's answer ("" when it ended paused or failed).
	Answer string
	// Paused is the pending question when the last turn ended paused by a tool.
	Paused *agent.PauseInfo
	// Iterations is the iteration the last turn ended on.
	Iterations int
	// Turns has one entry per turn taken, in order.
	Turns []TurnReport
	// Transcript is the whole conversation as of the last turn (agent.Conversation's history).
	Transcript []llm.Message
	// ToolCalls lists every call the model made, in dispatch order across turns.
	ToolCalls []ToolCall
	// ToolMessages is what the model was served for each call, in order.
	ToolMessages []ToolMessage
	// CoverageDeclared holds the coverageDeclared rows of every turn, in order.
	CoverageDeclared []coverage.DeclaredCoverage
	// Ledger is the findings ledger as the last turn left it, rows of earlier turns
	// included (nil unless the results layer is armed).
	Ledger []ledger.Row
	// Standing is the last turn's assessment: the standing, its reasons and the checks
	// that ran (nil unless the results layer is armed and the turn finished).
	Standing *assess.Assessment
	// Events are every event of the run, in emission order.
	Events []event.Event
	// Record is the last turn's run record (a resumed turn's record holds both legs).
	Record *record.Record
	// Problems lists tool calls the scenario had no canned result for; Check reports them.
	Problems []Mismatch
	// RollUp is a composed scenario's honesty roll-up: the inner runs' standings and the
	// inner reasons with their witnesses (nil for a single agent).
	RollUp *compose.RollUp
	// Limits is a composed scenario's limits block, one part per inner agent that declared
	// coverage, under the agent's name ("" for none, and for a single agent).
	Limits string

	expect *expectSpec
}

// TurnReport is one turn as it went.
type TurnReport struct {
	User       string           `json:"user,omitempty"`
	Resume     json.RawMessage  `json:"resume,omitempty"`
	Answer     string           `json:"answer"`
	Paused     bool             `json:"paused"`
	Pause      *agent.PauseInfo `json:"pause,omitempty"`
	Iterations int              `json:"iterations"`
	RunID      string           `json:"runId"`
}

// ToolCall is one call the model made and how it went.
type ToolCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Args      json.RawMessage `json:"args"`
	Iteration int             `json:"iteration"`
	Status    tool.Status     `json:"status,omitempty"`
	Error     bool            `json:"error,omitempty"`
	// Served is false for a call that paused the run and was not resumed (a resumed call is
	// served the person's answer).
	Served bool `json:"served"`
}

// ToolMessage is one tool result exactly as the model was served it.
type ToolMessage struct {
	ToolCallID string `json:"toolCallId"`
	ToolName   string `json:"toolName"`
	Content    string `json:"content"`
	IsError    bool   `json:"isError,omitempty"`
}

type eventJSON struct {
	Type    event.Name `json:"type"`
	Payload any        `json:"payload"`
}

// MarshalJSON writes the report as one object with the keys answer, standing (only when
// the results layer is armed, or for a composed scenario), rollUp and limits (composed
// scenarios only), ledger, coverageDeclared, toolMessages, events
// ([{type, payload}]) and record, in that order. Lists are [] when empty.
func (r *Report) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	first := true
	put := func(key string, v any) error {
		b, err := marshalNoEscape(v)
		if err != nil {
			return fmt.Errorf("scenario: report %s: %w", key, err)
		}
		if !first {
			buf.WriteByte(',')
		}
		first = false
		k, _ := json.Marshal(key)
		buf.Write(k)
		buf.WriteByte(':')
		buf.Write(b)
		return nil
	}
	evs := make([]eventJSON, 0, len(r.Events))
	for _, e := range r.Events {
		evs = append(evs, eventJSON{Type: e.Type, Payload: e.Payload})
	}
	fields := []struct {
		key string
		v   any
	}{
		{"answer", r.Answer},
		{"standing", standingJSON(r.Standing)},
		{"rollUp", r.RollUp},
		{"limits", r.Limits},
		{"ledger", nonNil(r.Ledger)},
		{"coverageDeclared", nonNil(r.CoverageDeclared)},
		{"toolMessages", nonNil(r.ToolMessages)},
		{"events", evs},
		{"record", r.Record},
	}
	for _, f := range fields {
		if f.key == "standing" && r.Standing == nil || f.key == "rollUp" && r.RollUp == nil || f.key == "limits" && r.RollUp == nil {
			continue
		}
		if err := put(f.key, f.v); err != nil {
			return nil, err
		}
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// WriteJSON writes the report's JSON form and a newline, without escaping <, > and &.
func (r *Report) WriteJSON(w io.Writer) error {
	b, err := r.MarshalJSON()
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// marshalNoEscape is json.Marshal without HTML escaping, so served text reads as written.
func marshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}), nil
}

// standingOut is the standing as `--json` prints it: the word, the reasons with their
// witnesses, and the checks that ran.
type standingOut struct {
	Standing string            `json:"standing"`
	Reasons  []standingReason  `json:"reasons"`
	Checked  []standingChecked `json:"checked"`
}

type standingReason struct {
	Reason  string           `json:"reason"`
	Layer   int              `json:"layer"`
	Witness []assess.Pointer `json:"witness"`
}

type standingChecked struct {
	Check string `json:"check"`
	Layer int    `json:"layer"`
	Ran   int    `json:"ran"`
	Of    int    `json:"of"`
}

func standingJSON(a *assess.Assessment) *standingOut {
	if a == nil {
		return nil
	}
	out := &standingOut{Standing: a.Standing, Reasons: []standingReason{}, Checked: []standingChecked{}}
	for _, r := range a.Reasons {
		out.Reasons = append(out.Reasons, standingReason{Reason: r.Reason, Layer: r.Layer, Witness: nonNil(r.Witness)})
	}
	for _, c := range a.Checked {
		out.Checked = append(out.Checked, standingChecked{Check: c.Check, Layer: c.Layer, Ran: c.Ran, Of: c.Of})
	}
	return out
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// WriteTranscript writes the run for a person: the question, each step (what the model
// said, each tool it called with its arguments, what it was served) and the answer.
func (r *Report) WriteTranscript(w io.Writer) error {
	tw := &textWriter{w: w}
	if r.Scenario != "" {
		tw.line("Scenario: %s", r.Scenario)
	}
	if r.Description != "" {
		tw.wrapped("", r.Description)
	}
	if r.Scenario != "" || r.Description != "" {
		tw.line("")
	}
	// The person's messages are the turns' messages, in order; any other user-role
	// message was written by the agent (the wrap-up request, for one).
	var said []string
	for _, t := range r.Turns {
		if t.User != "" {
			said = append(said, t.User)
		}
	}
	step := 0
	var lastAssistant string
	for i, m := range r.Transcript {
		switch m.Role {
		case llm.RoleUser:
			person := len(said) > 0 && said[0] == m.Content
			if person {
				said = said[1:]
			}
			switch {
			case i == 0:
				tw.wrapped("Question: ", m.Content)
			case person:
				tw.line("")
				tw.wrapped("Person: ", m.Content)
			default:
				tw.wrapped("  the agent told the model: ", m.Content)
			}
		case llm.RoleAssistant:
			if len(m.ToolCalls) == 0 {
				lastAssistant = m.Content
				if i < len(r.Transcript)-1 {
					tw.line("")
					tw.wrapped("Answer: ", m.Content)
				}
				continue
			}
			step++
			tw.line("")
			tw.line("Step %d", step)
			if m.Content != "" {
				tw.wrapped("  model said: ", m.Content)
			}
			for _, c := range m.ToolCalls {
				tw.line("  called %s %s", c.Name, compact(c.Args))
			}
		case llm.RoleTool:
			label := "  " + m.ToolName + " served"
			if m.IsError {
				label += " (error)"
			}
			tw.block(label+": ", m.Content)
			r.writePeriods(tw, m.ToolCallID)
		}
	}
	tw.line("")
	switch {
	case r.Paused != nil:
		data, _ := json.Marshal(r.Paused.Data)
		tw.line("Paused: %s (call %s) asks %s", r.Paused.ToolName, r.Paused.ToolCallID, data)
	case r.Answer != "" || lastAssistant != "":
		tw.wrapped("Answer: ", r.Answer)
	default:
		tw.line("Answer: (none)")
	}
	if a := r.Standing; a != nil {
		var reasons []string
		for _, rs := range a.Reasons {
			reasons = append(reasons, rs.Reason)
		}
		line := a.Standing
		if len(reasons) > 0 {
			line += " (" + strings.Join(reasons, ", ") + ")"
		}
		tw.line("")
		tw.wrapped("Standing: ", line)
		for _, c := range a.Checked {
			tw.line("  checked %s: ran on %d of %d", c.Check, c.Ran, c.Of)
		}
	}
	r.writeRollUp(tw)
	return tw.err
}

// WriteText writes everything a person checking a scenario wants: the transcript, the tool
// results as served, the coverage rows, the events, the record's stage ids in order, and
// the expectations that did not hold.
func (r *Report) WriteText(w io.Writer) error {
	if err := r.WriteTranscript(w); err != nil {
		return err
	}
	tw := &textWriter{w: w}
	tw.line("")
	tw.line("Tool results as served (%d)", len(r.ToolMessages))
	for i, m := range r.ToolMessages {
		status := ""
		for _, c := range r.ToolCalls {
			if c.ID == m.ToolCallID && c.Status != "" {
				status = " [" + string(c.Status) + "]"
			}
		}
		tw.line("  %d. %s %s%s: %s", i+1, m.ToolName, m.ToolCallID, status, oneLine(m.Content, 160))
	}
	if len(r.CoverageDeclared) > 0 {
		tw.line("")
		tw.line("Coverage declared (%d)", len(r.CoverageDeclared))
		for _, row := range r.CoverageDeclared {
			b, _ := json.Marshal(row)
			tw.line("  %s", oneLine(string(b), 200))
		}
	}
	tw.line("")
	tw.line("Events (%d)", len(r.Events))
	for _, e := range r.Events {
		b, _ := json.Marshal(e.Payload)
		tw.line("  %-42s %s", strings.TrimPrefix(string(e.Type), event.Prefix), oneLine(string(b), 120))
	}
	tw.line("")
	if r.Record != nil && r.Record.Log != nil {
		ids := make([]string, 0, len(r.Record.Log.Commits))
		for _, c := range r.Record.Log.Commits {
			ids = append(ids, c.RuntimeStageID)
		}
		tw.line("Record (%s): run %s, %d commits", record.Format, r.Record.Manifest.RunID, len(ids))
		tw.wrapped("  ", strings.Join(ids, " "))
	} else {
		tw.line("Record: none")
	}
	if ms := r.Check(); len(ms) > 0 {
		tw.line("")
		tw.line("Expectations not met (%d)", len(ms))
		for _, m := range ms {
			tw.line("  %s", m)
		}
	} else if r.expect != nil {
		tw.line("")
		tw.line("Expectations: all met")
	}
	return tw.err
}

// writePeriods writes, under a served result, the period its declaration recorded and the
// verdict the served result carries.
func (r *Report) writePeriods(tw *textWriter, callID string) {
	for _, row := range r.CoverageDeclared {
		if row.ToolCallID != callID || row.Period == nil {
			continue
		}
		line := coverread.PeriodLine(row.ToolName, *row.Period)
		if v, err := coverage.VerdictOf(*row.Period); err == nil {
			line += " (verdict: " + string(v) + ")"
		}
		tw.wrapped("  period: ", line)
	}
}

// textWriter writes lines and keeps the first error.
type textWriter struct {
	w   io.Writer
	err error
}

func (t *textWriter) line(format string, args ...any) {
	if t.err != nil {
		return
	}
	_, t.err = fmt.Fprintf(t.w, format+"\n", args...)
}

// wrapped writes text after prefix, wrapping at about 100 columns with a hanging indent.
func (t *textWriter) wrapped(prefix, text string) {
	base := strings.Repeat(" ", len(prefix))
	for pi, para := range strings.Split(text, "\n") {
		cur := prefix
		if pi > 0 {
			cur = base
		}
		// A bullet's continuation lines hang under its text.
		indent := base
		if strings.HasPrefix(para, "- ") {
			indent += "  "
		}
		n := len(cur)
		wrote := false
		for _, word := range strings.Fields(para) {
			if wrote && n+1+len(word) > 100 {
				t.line("%s", cur)
				cur, n, wrote = indent, len(indent), false
			}
			if wrote {
				cur += " "
				n++
			}
			cur += word
			n += len(word)
			wrote = true
		}
		t.line("%s", strings.TrimRight(cur, " "))
	}
}

// block writes served content: a leading JSON object or array indented for reading, and
// any text after it (a note the framework served after the value) wrapped.
func (t *textWriter) block(prefix, content string) {
	trimmed := strings.TrimSpace(content)
	if strings.HasPrefix(trimmed, "{") || strings.HasPrefix(trimmed, "[") {
		dec := json.NewDecoder(strings.NewReader(trimmed))
		var raw json.RawMessage
		var buf bytes.Buffer
		if dec.Decode(&raw) == nil && json.Indent(&buf, raw, "    ", "  ") == nil {
			t.line("%s%s", prefix, buf.String())
			if rest := strings.TrimSpace(trimmed[dec.InputOffset():]); rest != "" {
				t.wrapped("    ", rest)
			}
			return
		}
	}
	t.wrapped(prefix, content)
}

// oneLine shortens s to at most n runes on one line.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	return string(rs[:n-1]) + "…"
}

// writeRollUp writes a composed scenario's inner standings and the inner reasons, each with
// the inner run and the witness rows it points at.
func (r *Report) writeRollUp(tw *textWriter) {
	ru := r.RollUp
	if ru == nil {
		return
	}
	tw.line("")
	tw.line("Inner answers (%d)", len(ru.Inner))
	for _, in := range ru.Inner {
		tw.line("  %s: %s (node %s, run %s)", in.Agent, in.Standing, in.Node, in.RunID)
	}
	for _, rs := range ru.Reasons {
		var ws []string
		for _, w := range rs.Witness {
			ws = append(ws, w.Key+w.Path)
		}
		where := "node " + rs.Node
		if rs.Node == "" {
			where = "the composition's own log"
		}
		if rs.RunID != "" {
			where += ", run " + rs.RunID
		}
		tw.line("  reason %s from agent %s (%s): witness %s", rs.Reason, rs.Agent, where, strings.Join(ws, ", "))
	}
	if r.Limits != "" && !strings.Contains(r.Answer, r.Limits) {
		tw.line("")
		tw.block("Limits of the inner agents: ", r.Limits)
	}
}
