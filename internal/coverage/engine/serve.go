// This file holds the serve door, which derives what the model reads from a tool result, and its
// inverse for readers of served text.

package engine

import (
	"strings"

	cw "github.com/agentfootprint/agentfootprint-go/coverage/wire"
)

// Served returns what the model reads for a tool result. For every recognized envelope, at every
// depth of a ledger's result, it removes the record-only item keys (short, kind), adds the verdict
// word and its clause for a period the store does not fully hold, adds the in-progress clause,
// and projects a described result onto the keys the model reads. When nothing changes it returns
// v itself and false; it never mutates v, and rebuilds only the changed paths. Served(Served(x))
// equals Served(x).
func Served(v any) (out any, changed bool) {
	if !mayBeEnvelope(v) {
		return v, false
	}
	s := walker{seen: map[uintptr]bool{}}
	return s.serve(v)
}

// WithoutServed undoes what [Served] added, for readers of what the model was served: a verdict
// word equal to the recomputed one is removed, the period clause and then the in-progress clause
// are cut from the end of the note, and a note that was only a clause is deleted. The held-only
// absence note is kept, removed record-only keys cannot come back, and a projected described
// result no longer carries its marker, so it is returned as found. Served text is never evidence.
func WithoutServed(v any) (out any, changed bool) {
	if !mayBeEnvelope(v) {
		return v, false
	}
	s := walker{seen: map[uintptr]bool{}}
	return s.unserve(v)
}

// mayBeEnvelope reports whether v carries any marker, without building a view of it.
func mayBeEnvelope(v any) bool {
	for _, k := range []string{cw.AbsenceMarker, cw.CoverageMarker, cw.SemanticsMarker} {
		if _, has := markerValue(v, k); has {
			return true
		}
	}
	return false
}

type walker struct {
	seen  map[uintptr]bool
	depth int
}

// maxServeDepth bounds how many ledgers deep the walk goes; a value nested deeper is returned as
// found, like a cycle.
const maxServeDepth = 10000

// enter reports whether v may be walked: false for a holder already met (a cycle) or past the
// depth bound.
func (w *walker) enter(v any) bool {
	w.depth++
	if w.depth > maxServeDepth {
		return false
	}
	id, ok := holderID(v)
	if !ok {
		return true
	}
	if w.seen[id] {
		return false
	}
	w.seen[id] = true
	return true
}

// declaringStep serves or unserves one declaring object: an absence, or an af_coverage object.
type declaringStep func(o Object, absence, ledger bool) (Object, bool)

func (w *walker) serve(v any) (any, bool) { return w.walk(v, serveDeclaring, true) }

func (w *walker) unserve(v any) (any, bool) {
	return w.walk(v, func(o Object, _, ledger bool) (Object, bool) { return unserveDeclaring(o, ledger) }, false)
}

// walk applies step to every declaring object of a recognized envelope, through a ledger's result
// at any depth, and projects a described result when project is set.
func (w *walker) walk(v any, step declaringStep, project bool) (any, bool) {
	if !w.enter(v) {
		return v, false
	}
	if _, ok := ReadAbsence(v); ok {
		o, _ := orderedEnvelope(v, AbsenceKeys())
		out, ch := step(o, true, false)
		return pick(v, out, ch)
	}
	if _, ok := ReadCoverageLedger(v); ok {
		o, _ := orderedEnvelope(v, CoveredResultKeys())
		ac, _ := o.Get(cw.CoverageMarker)
		inner, _ := orderedEnvelope(ac, CoverageKeys())
		innerOut, ch1 := step(inner, false, true)
		res, _ := o.Get("result")
		resOut, ch2 := w.walk(res, step, project)
		if !ch1 && !ch2 {
			return v, false
		}
		out := o
		if ch1 {
			out = out.With(cw.CoverageMarker, innerOut)
		}
		if ch2 {
			out = out.With("result", resOut)
		}
		return out, true
	}
	if project {
		if o, _ := ReadSemantics(v); o != nil {
			ord, _ := orderedEnvelope(v, SemanticsKeys())
			return serveSemantics(ord), true
		}
	}
	return v, false
}

func pick(orig any, out Object, changed bool) (any, bool) {
	if !changed {
		return orig, false
	}
	return out, true
}

// orderedEnvelope views an envelope in its own order, or a map in the canonical order.
func orderedEnvelope(v any, order []string) (Object, bool) {
	if _, isMap := v.(map[string]any); isMap {
		return orderedView(v, order)
	}
	return envelopeObject(v)
}

var servedLists = []string{"checked", "not_checked", "cannot_cover", InProgressKey}

// serveDeclaring serves one declaring object (an absence, or an af_coverage object).
func serveDeclaring(o Object, absence, ledger bool) (Object, bool) {
	out := o
	changed := false
	for _, k := range servedLists {
		if k == InProgressKey && !ledger {
			continue
		}
		l, has := out.Get(k)
		if !has {
			continue
		}
		if nl, ch := stripItems(l); ch {
			out = out.With(k, nl)
			changed = true
		}
	}
	note, _ := out.Get("note")
	noteChanged := false
	if ledger {
		if ip, has := out.Get(InProgressKey); has {
			items, p := inProgressList(ip, InProgressKey, false)
			if p == nil && len(items) > 0 && !hasInProgressClause(note) {
				note = noteWithClause(note, InProgressClause)
				noteChanged = true
			}
		}
	}
	if per, has := out.Get(PeriodKey); has {
		if sp, ok := ServedPeriod(per); ok {
			out = out.With(PeriodKey, sp.Period)
			if absence && note == any(AbsenceNote) && (sp.Verdict == VerdictNotHeld || sp.Verdict == VerdictPartlyHeld) {
				note = AbsenceNoteHeldOnly
			}
			note = noteWithClause(note, sp.Clause)
			noteChanged = true
			changed = true
		}
	}
	if noteChanged {
		out = out.With("note", note)
		changed = true
	}
	return out, changed
}

// hasInProgressClause reports whether a served note already carries the in-progress clause, alone,
// at its end, or just before a period clause.
func hasInProgressClause(note any) bool {
	s, ok := note.(string)
	if !ok {
		return false
	}
	if s == InProgressClause || strings.HasSuffix(s, " "+InProgressClause) {
		return true
	}
	for _, c := range []string{ClauseNotHeld, ClausePartlyHeld, ClauseUnknown} {
		if s == InProgressClause+" "+c || strings.HasSuffix(s, " "+InProgressClause+" "+c) {
			return true
		}
	}
	return false
}

// stripItems removes non-null short and kind from every object item of a list.
func stripItems(l any) (any, bool) {
	arr, ok := asArray(l)
	if !ok {
		return l, false
	}
	var out []any
	for i, e := range arr {
		io, isObj := orderedView(e, append(ItemKeys(), CountKey))
		if !isObj {
			continue
		}
		stripped := io
		ch := false
		for _, k := range RecordOnlyItemKeys() {
			if x, has := stripped.Get(k); has && x != nil {
				stripped = stripped.Without(k)
				ch = true
			}
		}
		if !ch {
			continue
		}
		if out == nil {
			out = append([]any(nil), arr...)
		}
		out[i] = stripped
	}
	if out == nil {
		return l, false
	}
	return out, true
}

// serveSemantics projects a recognized af_semantics envelope onto what the model reads.
func serveSemantics(o Object) Object {
	out := Object{}
	note, _ := o.Get("note")
	for _, m := range o {
		switch m.Key {
		case cw.SemanticsMarker, "coverage", "render", "note":
			continue
		case "clarify":
			if m.Value == nil {
				continue
			}
		case "not_covered":
			if arr, _ := asArray(m.Value); len(arr) == 0 {
				continue
			}
		case PeriodKey:
			if sp, ok := ServedPeriod(m.Value); ok {
				out = append(out, Member{Key: PeriodKey, Value: sp.Period})
				note = noteWithClause(note, sp.Clause)
				continue
			}
		}
		out = append(out, m)
	}
	return append(out, Member{Key: "note", Value: note})
}

func unserveDeclaring(o Object, ledger bool) (Object, bool) {
	out := o
	changed := false
	note, hasNote := out.Get("note")
	keep := hasNote
	if per, has := out.Get(PeriodKey); has {
		if un, word, ok := unservedPeriod(per); ok {
			out = out.With(PeriodKey, un)
			changed = true
			if clause, ok := periodVerdictClause(word); ok && keep {
				note, keep = noteWithoutClause(note, clause)
			}
		}
	}
	if ledger && keep {
		if ip, has := out.Get(InProgressKey); has {
			if items, p := inProgressList(ip, InProgressKey, false); p == nil && len(items) > 0 {
				note, keep = noteWithoutClause(note, InProgressClause)
			}
		}
	}
	if hasNote {
		orig, _ := out.Get("note")
		ns, isStr := note.(string)
		os, wasStr := orig.(string)
		switch {
		case !keep:
			out = out.Without("note")
			changed = true
		case isStr && wasStr && ns != os:
			out = out.With("note", ns)
			changed = true
		}
	}
	return out, changed
}
