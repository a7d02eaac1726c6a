// This file holds the batch ask: one typed question per batch for every
// ruled argument left missing under an ask rule, and the rounds that re-check
// each reply against the argument's schema until it fits or is refused.

package inputs

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/internal/honesty/rowkind"

	"github.com/agentfootprint/agentfootprint-go/honesty/inputs"
	"github.com/agentfootprint/agentfootprint-go/honesty/ledger"
	"github.com/agentfootprint/agentfootprint-go/internal/periodspell"
	"github.com/agentfootprint/agentfootprint-go/tool"
	"github.com/agentfootprint/agentfootprint-go/tool/toolrun"
)

// MaxRounds is how many replies a field may misfit before its calls are
// refused.
const MaxRounds = 3

// Question sentences (project wording).
const (
	QuestionFirst = "This run needs a few values before it can continue; each field below says what it is for."
	QuestionAgain = "The tool's schema did not accept an earlier reply; please answer the fields below again."
)

// ContextKey is the reserved key of the pause context.
const ContextKey = "agentfootprint"

// NewAsk builds the question for a batch: one field per distinct (tool,
// argument) waiting, in batch order then argument order, except that the
// look-back period arguments of several tools share one field when their
// choices match once written in one spelling (an iso-range never shares).
// requestID should be deterministic (run, iteration, round).
func NewAsk(b Batch, calls []Call, toolOf ToolOf, requestID string) (inputs.Ask, error) {
	a := inputs.Ask{RequestID: requestID, Round: 1, Expected: map[string]string{}, Spelling: map[string]string{}}
	index := map[[2]string]int{}
	shared := map[string]string{} // share key → field id
	for _, c := range calls {
		res, ok := b.ResolutionOf(c.ID)
		if !ok || len(res.Ask) == 0 {
			continue
		}
		t, ok := toolOf(c.Name)
		if !ok {
			continue
		}
		for _, arg := range res.Ask {
			k := [2]string{c.Name, arg}
			if i, seen := index[k]; seen {
				a.Bindings[i].Calls = append(a.Bindings[i].Calls, c.ID)
				continue
			}
			key, spelling := shareKey(t, arg)
			if id, ok := shared[key]; ok && key != "" {
				index[k] = len(a.Bindings)
				a.Bindings = append(a.Bindings, inputs.Binding{ID: id, Tool: c.Name, Argument: arg, Calls: []string{c.ID}})
				continue
			}
			f, typ, err := fieldOf(t, arg, "f"+strconv.Itoa(len(a.Fields)+1))
			if err != nil {
				return inputs.Ask{}, err
			}
			a.Expected[f.ID] = typ
			if key != "" {
				shared[key] = f.ID
				a.Spelling[f.ID] = spelling
			}
			index[k] = len(a.Bindings)
			a.Fields = append(a.Fields, f)
			a.Bindings = append(a.Bindings, inputs.Binding{ID: f.ID, Tool: c.Name, Argument: arg, Calls: []string{c.ID}})
		}
	}
	if len(a.Fields) > 32 {
		return inputs.Ask{}, fmt.Errorf("inputs: the batch needs %d answers; at most 32 are asked in one question", len(a.Fields))
	}
	return a, nil
}

// shareKey is the key under which a look-back period argument's question is
// shared: its choices written as lookbacks, in order. "" for anything else.
func shareKey(t *tool.Tool, arg string) (key, spelling string) {
	p := t.Declaration().Period
	ok := p != nil
	r := t.Declaration().AskOrAssume[arg]
	if !ok || p.Argument != arg || len(r.Choices) == 0 ||
		(p.Spelling != tool.SpellingLookback && p.Spelling != tool.SpellingSignedLookback) {
		return "", ""
	}
	parts := make([]string, 0, len(r.Choices))
	for _, ch := range r.Choices {
		v, isText := ch.Value.(string)
		if !isText {
			return "", ""
		}
		lb, err := periodspell.Convert(v, string(p.Spelling), string(tool.SpellingLookback))
		if err != nil {
			return "", ""
		}
		parts = append(parts, lb)
	}
	return "period|" + strings.Join(parts, ","), string(p.Spelling)
}

// valueFor writes a shared field's answer in the binding tool's own
// spelling; any other value passes as it is.
func valueFor(a inputs.Ask, fieldID string, t *tool.Tool, v any) any {
	from, shared := a.Spelling[fieldID]
	s, isText := v.(string)
	p := t.Declaration().Period
	ok := p != nil
	if !shared || !isText || !ok || string(p.Spelling) == from {
		return v
	}
	if out, err := periodspell.Convert(s, from, string(p.Spelling)); err == nil {
		return out
	}
	return v
}

func fieldOf(t *tool.Tool, arg, id string) (inputs.Field, string, error) {
	r := t.Declaration().AskOrAssume[arg]
	var schema struct {
		Properties map[string]struct {
			Type any `json:"type"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(t.Declaration().InputSchema, &schema); err != nil {
		return inputs.Field{}, "", fmt.Errorf("inputs: tool %s: reading its schema: %w", t.Name(), err)
	}
	typ, _ := schema.Properties[arg].Type.(string)
	if typ == "" {
		return inputs.Field{}, "", fmt.Errorf("inputs: tool %s: argument %s has no single scalar type to ask for", t.Name(), arg)
	}
	asked := typ
	if asked == "integer" {
		asked = "number"
	}
	f := inputs.Field{ID: id, Type: asked, Description: r.Ask}
	for _, ch := range r.Choices {
		f.Enum = append(f.Enum, ch.Value)
	}
	return f, typ, nil
}

// Pause returns the data the person is shown for the current round of a.
func Pause(a inputs.Ask) inputs.PauseData {
	q := QuestionFirst
	if a.Round > 1 {
		q = QuestionAgain
	}
	return inputs.PauseData{RequestID: a.RequestID, Question: q, Fields: a.Fields,
		Context: map[string]any{ContextKey: map[string]any{"ask": "arguments", "fields": a.Bindings}}}
}

// Outcome is what one reply settled.
type Outcome struct {
	// Rows are the rows this round files in one write: answered rows for
	// values that fit, invalid-answer rows for those that did not.
	Rows []ledger.ArgumentRow
	// Fills are the values to fill, by call id.
	Fills map[string][]Fill
	// Refused are the refusals to serve, by call id (a third misfit).
	Refused map[string]string
	// Next is the question to ask again (only the fields that misfit and
	// have rounds left), nil when nothing is left to ask.
	Next *inputs.Ask
}

// Answer re-checks a reply to a against the schema of every argument each field
// binds. A wrong request id or a field left without a value is an error: the
// question stays open. st stamps the rows.
func Answer(a inputs.Ask, r inputs.Reply, toolOf ToolOf, st Stamp) (Outcome, error) {
	if r.RequestID != a.RequestID {
		return Outcome{}, fmt.Errorf("inputs: the reply answers request %q, not the open question %q", r.RequestID, a.RequestID)
	}
	for _, f := range a.Fields {
		if _, ok := r.Values[f.ID]; !ok {
			return Outcome{}, fmt.Errorf("inputs: the reply has no value for field %s", f.ID)
		}
	}
	out := Outcome{Fills: map[string][]Fill{}, Refused: map[string]string{}}
	next := inputs.Ask{RequestID: a.RequestID + "-" + strconv.Itoa(a.Round+1), Round: a.Round + 1, Misfits: map[string]int{},
		Expected: a.Expected, Spelling: a.Spelling}
	for _, f := range a.Fields {
		var v any
		if err := json.Unmarshal(r.Values[f.ID], &v); err != nil {
			return Outcome{}, fmt.Errorf("inputs: field %s: the value is not JSON: %w", f.ID, err)
		}
		// The value fits only when every argument it binds accepts it, in
		// that tool's own spelling.
		type bound struct {
			b     inputs.Binding
			t     *tool.Tool
			value any
		}
		var binds []bound
		fits := true
		for _, b := range a.Bindings {
			if b.ID != f.ID {
				continue
			}
			t, ok := toolOf(b.Tool)
			if !ok {
				return Outcome{}, fmt.Errorf("inputs: field %s names tool %s, which is not offered", f.ID, b.Tool)
			}
			bv := valueFor(a, f.ID, t, v)
			if toolrun.CheckArgument(t.Declaration(), b.Argument, bv) != nil {
				fits = false
			}
			binds = append(binds, bound{b, t, bv})
		}
		for _, x := range binds {
			for _, id := range x.b.Calls {
				row := ledger.ArgumentRow{Kind: rowkind.Argument, Turn: st.Turn, ToolCallID: id, ToolName: x.b.Tool,
					Iteration: st.Iteration, Argument: x.b.Argument, Rule: RuleAsk}
				if p := x.t.Declaration().Period; p != nil && p.Argument == x.b.Argument {
					row.Period = true
				}
				if fits {
					row.Source, row.Value, row.Free = SourceAnswered, Printed(x.value, slices.Contains(x.t.Declaration().HiddenArguments, x.b.Argument)), len(f.Enum) == 0
					out.Fills[id] = append(out.Fills[id], Fill{Argument: x.b.Argument, Value: x.value, Source: SourceAnswered})
				} else {
					row.Asked = AskedInvalidAnswer
				}
				out.Rows = append(out.Rows, row)
			}
		}
		if fits {
			continue
		}
		misfits := a.Misfits[f.ID] + 1
		if misfits >= MaxRounds {
			for _, x := range binds {
				for _, id := range x.b.Calls {
					out.Refused[id] = MisfitRefusal(x.b.Tool, x.b.Argument, a.Expected[f.ID])
				}
			}
			continue
		}
		next.Fields = append(next.Fields, f)
		for _, x := range binds {
			next.Bindings = append(next.Bindings, x.b)
		}
		next.Misfits[f.ID] = misfits
	}
	if len(next.Fields) > 0 {
		out.Next = &next
	}
	return out, nil
}
