// This file holds the resolve table: for each ruled argument of each call in a
// batch that will run, the row saying who chose the value and what the call
// is filled with or asked for.

package inputs

import (
	"encoding/json"
	"slices"

	"github.com/agentfootprint/agentfootprint-go/internal/honesty/rowkind"

	"github.com/agentfootprint/agentfootprint-go/honesty/ledger"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// Rule and source words (wire facts of the argument row).
const (
	RuleAsk    = "ask"
	RuleAssume = "assume"

	SourceDefault  = "default"
	SourceModel    = "model"
	SourceAnswered = "answered"
	SourceApp      = "app"

	AskedMissing       = "missing"
	AskedInvalidAnswer = "invalid-answer"
)

// Call is one call of a batch as the model proposed it.
type Call struct {
	ID   string          `json:"id"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

// Stamp is what every row of a batch carries: the turn and the batch's
// iteration.
type Stamp struct {
	Turn      int
	Iteration int
}

// Fill is one argument value the layer puts into a call's fresh args.
type Fill struct {
	Argument string `json:"argument"`
	Value    any    `json:"value"`
	Source   string `json:"source"`
}

// Resolution is what the layer decided for one call: the values to fill,
// the arguments to ask the person for, or a refusal served instead of
// running the call.
type Resolution struct {
	ToolCallID string   `json:"toolCallId"`
	Iteration  int      `json:"iteration"`
	Fills      []Fill   `json:"fills,omitempty"`
	Ask        []string `json:"ask,omitempty"`
	Refused    string   `json:"refused,omitempty"`
}

// Batch is the layer's verdict on one batch: the rows to file (one write)
// and one resolution per ruled call.
type Batch struct {
	Rows        []ledger.ArgumentRow
	Resolutions []Resolution
	// Kept are the kept answers left for later batches.
	Kept []KeptAnswer
}

// NeedsAsk reports whether any call waits for the person.
func (b Batch) NeedsAsk() bool {
	for _, r := range b.Resolutions {
		if len(r.Ask) > 0 {
			return true
		}
	}
	return false
}

// ResolutionOf returns the resolution for call id, if any.
func (b Batch) ResolutionOf(id string) (Resolution, bool) {
	for _, r := range b.Resolutions {
		if r.ToolCallID == id {
			return r, true
		}
	}
	return Resolution{}, false
}

// ToolOf resolves a call's tool by name, as dispatch does.
type ToolOf func(name string) (*tool.Tool, bool)

// RuledArguments returns a tool's ruled argument names in the order the
// layer visits them (by name, so a batch resolves the same way every run).
func RuledArguments(t *tool.Tool) []string {
	rules := t.Declaration().AskOrAssume
	names := make([]string, 0, len(rules))
	for n := range rules {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Binder returns the value the app binds a missing argument to (the window
// the person set in the app's control, for a tool's period argument), and
// false when it binds none.
type Binder func(t *tool.Tool, argument string) (any, bool)

// Resolve applies the resolve table to every call whose tool carries rules.
// Calls to unknown or unruled tools, and calls whose arguments are not a
// JSON object (the validator refuses those), get nothing.
func Resolve(calls []Call, toolOf ToolOf, st Stamp) Batch {
	return ResolveBound(calls, toolOf, st, nil)
}

// ResolveBound is Resolve with a binder: a missing argument the binder binds
// is filled with the app's value before any rule applies, and its row says
// source "app".
func ResolveBound(calls []Call, toolOf ToolOf, st Stamp, bind Binder) Batch {
	return ResolveWith(calls, toolOf, st, Options{Bind: bind})
}

// KeptAnswer is a person's answer kept for a later call of the same tool in
// the same turn: the call it was given for could not run (it needed a
// second pause).
type KeptAnswer struct {
	ToolName string `json:"toolName"`
	Argument string `json:"argument"`
	Value    any    `json:"value"`
	Turn     int    `json:"turn"`
}

// Options are what a batch is resolved with beyond the calls.
type Options struct {
	// Bind binds missing arguments to the app's values.
	Bind Binder
	// Kept are this conversation's kept answers: a missing ask argument of
	// the same tool, in the same turn, is filled from one (row answered,
	// nothing asked), and that answer is used up.
	Kept []KeptAnswer
}

// ResolveWith is Resolve with options. The batch's Kept holds the kept
// answers left after this batch.
func ResolveWith(calls []Call, toolOf ToolOf, st Stamp, o Options) Batch {
	b := Batch{Kept: append([]KeptAnswer{}, o.Kept...)}
	bind := o.Bind
	for _, c := range calls {
		t, ok := toolOf(c.Name)
		if !ok || t == nil || len(t.Declaration().AskOrAssume) == 0 {
			continue
		}
		args := map[string]json.RawMessage{}
		if len(c.Args) > 0 && json.Unmarshal(c.Args, &args) != nil {
			continue
		}
		rows, res := resolveCall(c, t, args, st, bind, &b.Kept)
		b.Rows = append(b.Rows, rows...)
		b.Resolutions = append(b.Resolutions, res)
	}
	return b
}

func resolveCall(c Call, t *tool.Tool, args map[string]json.RawMessage, st Stamp, bind Binder, kept *[]KeptAnswer) ([]ledger.ArgumentRow, Resolution) {
	res := Resolution{ToolCallID: c.ID, Iteration: st.Iteration}
	rules := t.Declaration().AskOrAssume
	var rows []ledger.ArgumentRow
	for _, name := range RuledArguments(t) {
		r := rules[name]
		row := baseRow(c, t, name, st)
		hidden := slices.Contains(t.Declaration().HiddenArguments, name)
		row.Rule = RuleAsk
		if r.Assume != nil {
			row.Rule = RuleAssume
		}
		var bound any
		isBound := false
		keptAt := -1
		if IsMissing(args, name) && r.Assume == nil {
			for i, k := range *kept {
				if k.ToolName == c.Name && k.Argument == name && k.Turn == st.Turn {
					keptAt = i
					break
				}
			}
		}
		if bind != nil && IsMissing(args, name) && keptAt < 0 {
			bound, isBound = bind(t, name)
		}
		switch {
		case keptAt >= 0:
			v := (*kept)[keptAt].Value
			*kept = append((*kept)[:keptAt:keptAt], (*kept)[keptAt+1:]...)
			row.Source, row.Value = SourceAnswered, Printed(v, hidden)
			res.Fills = append(res.Fills, Fill{Argument: name, Value: v, Source: SourceAnswered})
		case isBound:
			row.Source, row.Value = SourceApp, Printed(bound, hidden)
			res.Fills = append(res.Fills, Fill{Argument: name, Value: bound, Source: SourceApp})
		case IsMissing(args, name) && r.Assume != nil:
			row.Rule, row.Source, row.Value = RuleAssume, SourceDefault, Printed(r.Assume, hidden)
			res.Fills = append(res.Fills, Fill{Argument: name, Value: r.Assume, Source: SourceDefault})
		case IsMissing(args, name):
			row.Rule, row.Asked = RuleAsk, AskedMissing
			res.Ask = append(res.Ask, name)
		default:
			var v any
			_ = json.Unmarshal(args[name], &v)
			row.Rule = RuleAsk
			row.Source, row.Value = SourceModel, Printed(v, hidden)
			if r.Assume != nil {
				row.Rule = RuleAssume
				if SameValue(v, r.Assume) {
					row.Source, row.Proposed = SourceDefault, row.Value
					row.Value = Printed(r.Assume, hidden)
				}
			}
		}
		rows = append(rows, row)
	}
	return rows, res
}

func baseRow(c Call, t *tool.Tool, name string, st Stamp) ledger.ArgumentRow {
	row := ledger.ArgumentRow{Kind: rowkind.Argument, Turn: st.Turn, ToolCallID: c.ID, ToolName: c.Name,
		Iteration: st.Iteration, Argument: name}
	if p := t.Declaration().Period; p != nil && p.Argument == name {
		row.Period = true
	}
	return row
}

// Apply returns args with the fills written in, on a fresh object: the
// model's keys plus the filled ones. args itself is never changed. It
// refuses args that are not a JSON object.
func Apply(args json.RawMessage, fills []Fill) (json.RawMessage, error) {
	if len(fills) == 0 {
		return args, nil
	}
	m := map[string]json.RawMessage{}
	if len(args) > 0 {
		if err := json.Unmarshal(args, &m); err != nil {
			return nil, err
		}
	}
	for _, f := range fills {
		b, err := json.Marshal(f.Value)
		if err != nil {
			return nil, err
		}
		m[f.Argument] = b
	}
	return json.Marshal(m)
}
