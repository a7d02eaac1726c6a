// This file holds what the model is served about a period: the verdict word and its clause, the
// exact inverse for readers of served text, the note helpers, and the Period: line.

package engine

import (
	"strings"
)

// PeriodAsServed is one wire period as the model reads it.
type PeriodAsServed struct {
	// Period is a copy of the wire period, the tool's own keys in its order, then "verdict" last.
	Period Object
	// Verdict is the served word; never covered.
	Verdict Verdict
	// Clause is the static clause for Verdict, appended to the envelope's note.
	Clause string
}

var periodOrder = []string{QueriedKey, HeldKey, ReadAtKey}
var spanOrder = []string{FromKey, ToKey}
var servedPeriodOrder = []string{QueriedKey, HeldKey, ReadAtKey, ServedVerdictKey}

// ServedPeriod returns what the model is served for a wire period, and false when there is
// nothing to add: no period, a period the rule set refuses (a period already carrying a verdict is
// one, so serving twice adds nothing), or a covered one. The tool's own value is never altered.
func ServedPeriod(wire any) (PeriodAsServed, bool) {
	r := readPeriod(wire)
	if r.Period == nil {
		return PeriodAsServed{}, false
	}
	v := verdictOfChecked(*r.Period)
	clause, ok := periodVerdictClause(v)
	if !ok {
		return PeriodAsServed{}, false
	}
	o, _ := orderedView(wire, periodOrder)
	out := make(Object, 0, len(o)+1)
	for _, m := range o {
		val := m.Value
		if so, isObj := orderedView(val, spanOrder); isObj {
			val = append(Object(nil), so...)
		}
		out = append(out, Member{Key: m.Key, Value: val})
	}
	out = append(out, Member{Key: ServedVerdictKey, Value: string(v)})
	return PeriodAsServed{Period: out, Verdict: v, Clause: clause}, true
}

// UnservedPeriod removes a served verdict word from a wire period when that word is exactly the
// one [ServedPeriod] computes from the rest. Anything else (not an object, no word, a word that
// disagrees with the instants) comes back as the same value, so a forged word stays visible to the
// rule set: only the library computes verdicts.
func UnservedPeriod(wire any) any {
	if rest, _, ok := unservedPeriod(wire); ok {
		return rest
	}
	return wire
}

// unservedPeriod returns the period without its served word, the word, and whether it was removed.
func unservedPeriod(wire any) (Object, Verdict, bool) {
	o, ok := orderedView(wire, servedPeriodOrder)
	if !ok {
		return nil, "", false
	}
	word, has := o.Get(ServedVerdictKey)
	if !has {
		return nil, "", false
	}
	rest := o.Without(ServedVerdictKey)
	sp, ok := ServedPeriod(rest)
	if !ok || word != any(string(sp.Verdict)) {
		return nil, "", false
	}
	return rest, sp.Verdict, true
}

// noteWithClause returns note followed by a space and clause when note is a non-empty string, and
// clause alone otherwise.
func noteWithClause(note any, clause string) string {
	if s, ok := note.(string); ok && s != "" {
		return s + " " + clause
	}
	return clause
}

// noteWithoutClause undoes [noteWithClause]. A non-string note comes back as found. A note equal to
// clause gives (nil, false): delete the key. A trailing " "+clause is cut. Anything else comes
// back as found.
func noteWithoutClause(note any, clause string) (any, bool) {
	s, ok := note.(string)
	if !ok {
		return note, true
	}
	if s == clause {
		return nil, false
	}
	if cut, found := strings.CutSuffix(s, " "+clause); found {
		return cut, true
	}
	return note, true
}

// PeriodLine is the line the limits block prints for one declaring call: the period as the tool
// declared it, instants verbatim, no verdict word. With a held span it reads
// "backup_runs queried A to B; the store holds C to D"; an unknown held and a readAt use this
// package's own static words around the tool's values.
func PeriodLine(tool string, p Period) string {
	var b strings.Builder
	b.WriteString(tool)
	b.WriteString(" queried ")
	b.WriteString(p.Queried.From)
	b.WriteString(" to ")
	b.WriteString(p.Queried.To)
	b.WriteString("; ")
	if p.Held.Unknown {
		b.WriteString(periodLineHeldUnknown)
	} else {
		b.WriteString("the store holds ")
		b.WriteString(p.Held.From)
		b.WriteString(" to ")
		b.WriteString(p.Held.To)
	}
	if p.ReadAt != "" {
		b.WriteString(periodLineReadAt)
		b.WriteString(p.ReadAt)
	}
	return b.String()
}
