// Evaluation: deciding, each iteration, which units fire and recording why.

package inject

import (
	"context"
	"fmt"
	"sort"

	"github.com/agentfootprint/agentfootprint-go/flow"
)

// Reader is the state a unit's trigger is evaluated against: a flow.Reader
// that can also name the last writer of a key. *flow.Scope implements it.
type Reader interface {
	flow.Reader
	WriterOf(key string) (runtimeStageID string, commit int, ok bool)
}

// ToolReturn is one tool call of the batch that ran just before this
// iteration, as an on-tool-return trigger sees it.
type ToolReturn struct {
	ToolCallID string `json:"toolCallId"`
	ToolName   string `json:"toolName"`
	Iteration  int    `json:"iteration"`
}

// Activation is the read_skill call that loaded a skill.
type Activation struct {
	ToolCallID string `json:"toolCallId"`
	Iteration  int    `json:"iteration"`
}

// Env is what an evaluation knows besides state: the iteration, the calls of
// the previous batch, and the skills the model loaded so far in the turn.
type Env struct {
	// Context bounds the queries of retrieved units; nil means
	// context.Background().
	Context     context.Context
	Iteration   int
	Returns     []ToolReturn
	Activations map[string]Activation
}

// KeyRead is one state key a rule predicate read, with the runtime stage id
// and commit index of its last writer (empty and -1 when nothing wrote it).
type KeyRead struct {
	Key    string `json:"key"`
	Writer string `json:"writer"`
	Commit int    `json:"commit"`
}

// Evidence is why a unit fired or did not in one iteration: the ALLOWED hop
// of a backtrack. Which fields are set depends on Kind.
type Evidence struct {
	Kind        TriggerKind  `json:"kind"`
	Label       string       `json:"label,omitempty"`
	Matched     *bool        `json:"matched,omitempty"`
	Reads       []KeyRead    `json:"reads,omitempty"`
	Error       string       `json:"error,omitempty"`
	Matches     []ToolReturn `json:"matches,omitempty"`
	ActivatedBy *Activation  `json:"activatedBy,omitempty"`
	// Retrieval is set for a passage unit: its retrieval's query and its row.
	Retrieval *RetrievalEvidence `json:"retrieval,omitempty"`
}

// Placement is where an active unit landed: its slot and its position among
// the units of that slot.
type Placement struct {
	Slot     Slot `json:"slot"`
	Position int  `json:"position"`
}

// Drop says why an active unit was not placed.
type Drop struct {
	Reason string `json:"reason"`
}

// Entry is one unit's outcome in one iteration (an element of contextUnits).
type Entry struct {
	ID      string     `json:"id"`
	Active  bool       `json:"active"`
	Trigger Evidence   `json:"trigger"`
	Placed  *Placement `json:"placed,omitempty"`
	Dropped *Drop      `json:"dropped,omitempty"`
}

// Evaluate decides every unit against r and env, in the order given, and
// returns one Entry per unit in that order. Active units are placed per slot
// by descending priority, ties in the order given. Every key a rule reads
// goes through r, so it is a tracked read of the evaluating stage too.
// A predicate that panics counts as not matched and records the panic.
func Evaluate(units []*Unit, r Reader, env Env) []Entry {
	out := make([]Entry, len(units))
	var rs *retrievals // made at the first retrieval unit
	for i, u := range units {
		var ev Evidence
		if u.trig == TriggerRetrieved && u.retrieval != nil {
			if rs == nil {
				rs = &retrievals{ctx: env.Context, r: r, units: units, done: map[string]*retrievedRun{}}
			}
			ev = rs.evaluate(u)
		} else {
			ev = evaluate(u, r, env)
		}
		out[i] = Entry{ID: u.id, Trigger: ev}
		out[i].Active = fired(out[i].Trigger)
	}
	place(units, out)
	return out
}

func fired(e Evidence) bool {
	switch e.Kind {
	case TriggerAlways:
		return true
	case TriggerRule, TriggerRetrieved:
		return e.Matched != nil && *e.Matched
	case TriggerOnToolReturn:
		return len(e.Matches) > 0
	case TriggerLLMActivated:
		return e.ActivatedBy != nil
	}
	return false
}

func evaluate(u *Unit, r Reader, env Env) Evidence {
	switch u.trig {
	case TriggerRule:
		return evalRule(u.rule, r)
	case TriggerOnToolReturn:
		ev := Evidence{Kind: TriggerOnToolReturn}
		for _, ret := range env.Returns {
			if u.matchesTool(ret.ToolName) {
				ev.Matches = append(ev.Matches, ret)
			}
		}
		return ev
	case TriggerLLMActivated:
		ev := Evidence{Kind: TriggerLLMActivated}
		if a, ok := env.Activations[u.id]; ok {
			ev.ActivatedBy = &a
		}
		return ev
	}
	return Evidence{Kind: TriggerAlways}
}

func (u *Unit) matchesTool(name string) bool {
	if u.toolRe != nil && u.toolRe.MatchString(name) {
		return true
	}
	for _, t := range u.tools {
		if t == name {
			return true
		}
	}
	return false
}

// trackingReader records each key a predicate reads, once, in order.
type trackingReader struct {
	r     Reader
	reads []KeyRead
}

func (t *trackingReader) note(key string) {
	for _, k := range t.reads {
		if k.Key == key {
			return
		}
	}
	w, c, ok := t.r.WriterOf(key)
	if !ok {
		w, c = "", -1
	}
	t.reads = append(t.reads, KeyRead{Key: key, Writer: w, Commit: c})
}

func (t *trackingReader) Get(key string) (any, bool) {
	t.note(key)
	return t.r.Get(key)
}

func (t *trackingReader) Has(key string) bool {
	t.note(key)
	return t.r.Has(key)
}

func evalRule(rule Rule, r Reader) (ev Evidence) {
	tr := &trackingReader{r: r}
	matched := false
	ev = Evidence{Kind: TriggerRule, Label: rule.Label, Matched: &matched}
	defer func() {
		if p := recover(); p != nil {
			matched = false
			ev.Error = fmt.Sprintf("the predicate panicked: %v", p)
		}
		ev.Reads = tr.reads
		if ev.Reads == nil {
			ev.Reads = []KeyRead{}
		}
	}()
	if rule.When == nil {
		ev.Error = "no predicate"
		return ev
	}
	matched = rule.When(tr)
	return ev
}

func place(units []*Unit, out []Entry) {
	for _, slot := range []Slot{SlotSystem, SlotMessages} {
		var idx []int
		for i, u := range units {
			if out[i].Active && u.slot == slot {
				idx = append(idx, i)
			}
		}
		if len(idx) > 1 {
			sort.SliceStable(idx, func(a, b int) bool { return units[idx[a]].priority > units[idx[b]].priority })
		}
		for pos, i := range idx {
			out[i].Placed = &Placement{Slot: slot, Position: pos}
		}
	}
}

// Placed returns the active units of slot in placement order.
func Placed(units []*Unit, entries []Entry, slot Slot) []*Unit {
	var res []*Unit
	for i, e := range entries {
		if e.Placed != nil && e.Placed.Slot == slot && i < len(units) {
			res = append(res, units[i])
		}
	}
	if len(res) > 1 {
		sort.SliceStable(res, func(a, b int) bool {
			return posOf(entries, units, res[a]) < posOf(entries, units, res[b])
		})
	}
	return res
}

func posOf(entries []Entry, units []*Unit, u *Unit) int {
	for i := range units {
		if units[i] == u && entries[i].Placed != nil {
			return entries[i].Placed.Position
		}
	}
	return 0
}
