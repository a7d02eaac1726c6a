// Package contextunits is the agent's side of package inject: each
// iteration it decides which context units fire and records why, and once
// per run it writes every unit's catalog entry. Unit authors never call it;
// they build units with inject and read the outcome in the run record
// (inject.Entry, inject.CatalogEntry).
package contextunits

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sort"

	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/inject"
)

// Reader is the state a unit's trigger is evaluated against: a flow.Reader
// that can also name the last writer of a key. *flow.Scope implements it.
type Reader interface {
	flow.Reader
	WriterOf(key string) (runtimeStageID string, commit int, ok bool)
}

// Env is what an evaluation knows besides state: the iteration, the calls of
// the previous batch, and the skills the model loaded so far in the turn.
type Env struct {
	// Context bounds the queries of retrieved units; nil means
	// context.Background().
	Context     context.Context
	Iteration   int
	Returns     []inject.ToolReturn
	Activations map[string]inject.Activation
}

// Evaluate decides every unit against r and env, in the order given, and
// returns one Entry per unit in that order. Active units are placed per slot
// by descending priority, ties in the order given. Every key a rule reads
// goes through r, so it is a tracked read of the evaluating stage too.
// A predicate that panics counts as not matched and records the panic.
func Evaluate(units []*inject.Unit, r Reader, env Env) []inject.Entry {
	var rs *retrievals // made at the first retrieval unit
	// The definitions are read for this call only: the usual few live on
	// the stack.
	var buf [4]inject.Definition
	defs := buf[:0]
	if len(units) > len(buf) {
		defs = make([]inject.Definition, 0, len(units))
	}
	for _, u := range units {
		defs = append(defs, u.Definition())
	}
	out := make([]inject.Entry, len(units))
	for i := range defs {
		d := &defs[i]
		var ev inject.Evidence
		if d.Trigger == inject.TriggerRetrieved && d.Retrieval != nil {
			if rs == nil {
				rs = &retrievals{ctx: env.Context, r: r, defs: slices.Clone(defs), done: map[string]*retrievedRun{}}
			}
			ev = rs.evaluate(&rs.defs[i])
		} else {
			ev = evaluate(d, r, env)
		}
		out[i] = inject.Entry{ID: d.ID, Trigger: ev}
		out[i].Active = fired(out[i].Trigger)
	}
	place(defs, out)
	return out
}

func fired(e inject.Evidence) bool {
	switch e.Kind {
	case inject.TriggerAlways:
		return true
	case inject.TriggerRule, inject.TriggerRetrieved:
		return e.Matched != nil && *e.Matched
	case inject.TriggerOnToolReturn:
		return len(e.Matches) > 0
	case inject.TriggerLLMActivated:
		return e.ActivatedBy != nil
	}
	return false
}

func evaluate(d *inject.Definition, r Reader, env Env) inject.Evidence {
	switch d.Trigger {
	case inject.TriggerRule:
		return evalRule(d.Rule, r)
	case inject.TriggerOnToolReturn:
		ev := inject.Evidence{Kind: inject.TriggerOnToolReturn}
		for _, ret := range env.Returns {
			if matchesTool(d, ret.ToolName) {
				ev.Matches = append(ev.Matches, ret)
			}
		}
		return ev
	case inject.TriggerLLMActivated:
		ev := inject.Evidence{Kind: inject.TriggerLLMActivated}
		if a, ok := env.Activations[d.ID]; ok {
			ev.ActivatedBy = &a
		}
		return ev
	}
	return inject.Evidence{Kind: inject.TriggerAlways}
}

func matchesTool(d *inject.Definition, name string) bool {
	if d.ToolPattern != nil && d.ToolPattern.MatchString(name) {
		return true
	}
	for _, t := range d.Tools {
		if t == name {
			return true
		}
	}
	return false
}

// trackingReader records each key a predicate reads, once, in order.
type trackingReader struct {
	r     Reader
	reads []inject.KeyRead
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
	t.reads = append(t.reads, inject.KeyRead{Key: key, Writer: w, Commit: c})
}

func (t *trackingReader) Get(key string) (any, bool) {
	t.note(key)
	return t.r.Get(key)
}

func (t *trackingReader) Has(key string) bool {
	t.note(key)
	return t.r.Has(key)
}

func evalRule(rule inject.Rule, r Reader) (ev inject.Evidence) {
	tr := &trackingReader{r: r}
	matched := false
	ev = inject.Evidence{Kind: inject.TriggerRule, Label: rule.Label, Matched: &matched}
	defer func() {
		if p := recover(); p != nil {
			matched = false
			ev.Error = fmt.Sprintf("the predicate panicked: %v", p)
		}
		ev.Reads = tr.reads
		if ev.Reads == nil {
			ev.Reads = []inject.KeyRead{}
		}
	}()
	if rule.When == nil {
		ev.Error = "no predicate"
		return ev
	}
	matched = rule.When(tr)
	return ev
}

func place(defs []inject.Definition, out []inject.Entry) {
	active := 0
	for i := range out {
		if out[i].Active {
			active++
		}
	}
	if active == 0 {
		return
	}
	// One array holds the placements of this evaluation.
	placements := make([]inject.Placement, 0, active)
	var buf [16]int
	for _, slot := range [...]inject.Slot{inject.SlotSystem, inject.SlotMessages} {
		idx := buf[:0]
		for i := range defs {
			if out[i].Active && defs[i].Slot == slot {
				idx = append(idx, i)
			}
		}
		if len(idx) > 1 {
			slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(defs[b].Priority, defs[a].Priority) })
		}
		for pos, i := range idx {
			placements = append(placements, inject.Placement{Slot: slot, Position: pos})
			out[i].Placed = &placements[len(placements)-1]
		}
	}
}

// Placed returns the active units of slot in placement order.
func Placed(units []*inject.Unit, entries []inject.Entry, slot inject.Slot) []*inject.Unit {
	var res []*inject.Unit
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

func posOf(entries []inject.Entry, units []*inject.Unit, u *inject.Unit) int {
	for i := range units {
		if units[i] == u && entries[i].Placed != nil {
			return entries[i].Placed.Position
		}
	}
	return 0
}
