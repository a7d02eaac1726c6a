// This file holds the Described door: typed rows read from a system of record, with their
// provenance, period and coverage, and the wire rule set its recognizer shares with the mint.

package engine

import (
	"strings"

	cw "github.com/agentfootprint/agentfootprint-go/coverage/wire"
)

// Ground is the three coverage lists of a described result.
type Ground struct {
	Checked     []Item `json:"checked"`
	NotChecked  []Item `json:"notChecked"`
	CannotCover []Item `json:"cannotCover"`
}

// DescribedDecl is what a tool author declares for rows read from a system of record: measured
// points (Series), rows about entities (Facts) or relationships (Edges), with the caveats that make
// them honest. The door copies the rows as JSON data. Series and Facts need Provenance; Series also
// needs Grain. A declaration with only Edges, or only a Clarify question, needs neither. Period
// follows the absence rules; Coverage holds the three lists and may not be empty. A nil value
// means left out.
type DescribedDecl struct {
	Series     []any
	Facts      []any
	Edges      []any
	Grain      *Grain
	Provenance *Provenance
	Period     *Period
	Coverage   *Ground
	Clarify    *Clarify
	Render     *Render
}

// Semantics is a minted af_semantics envelope. Data values are fresh JSON-shaped copies; Grain,
// Clarify and Render hold their wire objects, keys already respelled (is_counter, filter_note,
// chart_hint) and in the author's order. not_covered is derived from Coverage when encoded.
type Semantics struct {
	Series     []any
	Facts      []any
	Edges      []any
	Grain      any
	Provenance *Provenance
	Period     *Period
	Coverage   *Ground
	// Clarify is the question object; ClarifyNone records an explicit `clarify: null` (the tool
	// considered ambiguity and found none), which the envelope keeps.
	Clarify     any
	ClarifyNone bool
	Render      any
}

var describedFieldsCamel = []string{"series", "facts", "edges", "grain", "provenance", "period", "coverage", "clarify", "render"}
var groundFieldsCamel = []string{"checked", "notChecked", "cannotCover"}
var groundFieldsWire = []string{"checked", "not_checked", "cannot_cover"}

// Described mints an af_semantics envelope from a typed declaration, or returns a [*Refusal].
func Described(d DescribedDecl) (*Semantics, error) {
	return DescribedData(d.data())
}

func (d DescribedDecl) data() Object {
	o := Object{}
	add := func(k string, v any, present bool) {
		if present {
			o = append(o, Member{Key: k, Value: v})
		}
	}
	add("series", d.Series, d.Series != nil)
	add("facts", d.Facts, d.Facts != nil)
	add("edges", d.Edges, d.Edges != nil)
	if d.Grain != nil {
		add("grain", d.Grain.object(), true)
	}
	if d.Provenance != nil {
		add("provenance", d.Provenance.object(), true)
	}
	if d.Period != nil {
		add("period", d.Period.object(inCamel), true)
	}
	if d.Coverage != nil {
		add("coverage", listsData(Object{}, d.Coverage.Checked, false, d.Coverage.NotChecked, d.Coverage.CannotCover), true)
	}
	if d.Clarify != nil {
		add("clarify", d.Clarify.object(), true)
	}
	if d.Render != nil {
		add("render", d.Render.object(), true)
	}
	return o
}

// DescribedData mints an af_semantics envelope from a declaration given as data (a decoded JSON
// object or JSON bytes, camelCase), by the same rules as [Described]. `clarify: null` is kept: it
// states that the tool considered ambiguity and found none.
func DescribedData(decl any) (*Semantics, error) {
	s, p := describedFrom(decl)
	if p != nil {
		return nil, p.refusal()
	}
	return s, nil
}

func describedFrom(decl any) (*Semantics, *Problem) {
	o, p := declObject(decl, describedFieldsCamel)
	if p != nil {
		return nil, p
	}
	for _, k := range []string{"notCovered", "not_covered"} {
		if _, has := o.Get(k); has {
			return nil, problemf(k, "`%s` is derived, never declared: declare `coverage` and the mint writes the list, so the prose and the items cannot disagree", k)
		}
	}
	if p := checkUnknown(o, "", describedFieldsCamel); p != nil {
		return nil, p
	}
	s := &Semantics{}
	for _, f := range []struct {
		key string
		dst *[]any
	}{{"series", &s.Series}, {"facts", &s.Facts}, {"edges", &s.Edges}} {
		v, present := o.Get(f.key)
		if !present || v == nil {
			continue
		}
		list, p := dataList(v, f.key)
		if p != nil {
			return nil, p
		}
		*f.dst = list
	}
	if v, present := o.Get("grain"); present && v != nil {
		if s.Grain, p = respelledObject(v, "grain", grainCamel, grainWire); p != nil {
			return nil, p
		}
	}
	if v, present := o.Get("provenance"); present && v != nil {
		if s.Provenance, p = provenanceRule(v, "provenance", inCamel); p != nil {
			return nil, p
		}
	}
	if v, present := o.Get("period"); present && v != nil {
		if s.Period, p = mintPeriod(v, "period"); p != nil {
			return nil, p
		}
	}
	if v, present := o.Get("coverage"); present && v != nil {
		if s.Coverage, p = groundRule(v, "coverage", inCamel); p != nil {
			return nil, p
		}
	}
	if v, present := o.Get("clarify"); present {
		if v == nil {
			s.ClarifyNone = true
		} else if s.Clarify, p = clarifyDecl(v); p != nil {
			return nil, p
		}
	}
	if v, present := o.Get("render"); present && v != nil {
		if s.Render, p = respelledObject(v, "render", renderCamel, renderWire); p != nil {
			return nil, p
		}
	}
	if p := semanticsRules(s.Wire(), inCamel); p != nil {
		return nil, p
	}
	return s, nil
}

// dataList checks one data list: an array, not empty, each value writable as JSON.
func dataList(v any, at string) ([]any, *Problem) {
	arr, ok := asArray(v)
	if !ok {
		return nil, problemf(at, "%s must be a list; it is %s", rootName(at), typeWord(v))
	}
	if len(arr) == 0 {
		return nil, problemf(at, "%s is empty; a read that found no rows is an absence, not an empty described result: return an absence instead", rootName(at))
	}
	fresh, err := freshJSON(arr)
	if err != nil {
		return nil, problemf(at, "%s cannot be written as JSON", rootName(at))
	}
	list, _ := fresh.([]any)
	return list, nil
}

// groundRule checks a coverage object {checked?, notChecked?, cannotCover?} (wire: snake_case).
func groundRule(v any, at string, sp keySpelling) (*Ground, *Problem) {
	fields := groundFieldsCamel
	if sp == onWire {
		fields = groundFieldsWire
	}
	o, ok := plainObject(v)
	if !ok {
		return nil, problemf(at, "%s must be an object {%s}; it is %s", rootName(at), strings.Join(fields, ", "), clipQuote(v))
	}
	if p := checkUnknown(o, at, fields); p != nil {
		return nil, p
	}
	g := &Ground{}
	var p *Problem
	x, _ := o.Get(fields[0])
	if g.Checked, p = mintList(x, sectionChecked, join(at, fields[0])); p != nil {
		return nil, p
	}
	x, _ = o.Get(fields[1])
	if g.NotChecked, p = mintList(x, sectionNotChecked, join(at, fields[1])); p != nil {
		return nil, p
	}
	x, _ = o.Get(fields[2])
	if g.CannotCover, p = mintList(x, sectionCannotCover, join(at, fields[2])); p != nil {
		return nil, p
	}
	if len(g.Checked)+len(g.NotChecked)+len(g.CannotCover) == 0 {
		return nil, problemf(at, "%s declares no ground: all three lists are empty. Name some ground, or leave the field out", rootName(at))
	}
	return g, nil
}

// notCovered derives the prose list from the coverage items: not_checked, then cannot_cover, each
// "<what> — <why>" or "<what>".
func notCovered(g *Ground) []string {
	if g == nil {
		return nil
	}
	var out []string
	for _, list := range [][]Item{g.NotChecked, g.CannotCover} {
		for _, it := range list {
			if it.Why != "" {
				out = append(out, it.What+" — "+it.Why)
			} else {
				out = append(out, it.What)
			}
		}
	}
	return out
}

func (g *Ground) wire() Object {
	o := Object{}
	if len(g.Checked) > 0 {
		o = append(o, Member{Key: "checked", Value: itemsWire(g.Checked)})
	}
	if len(g.NotChecked) > 0 {
		o = append(o, Member{Key: "not_checked", Value: itemsWire(g.NotChecked)})
	}
	if len(g.CannotCover) > 0 {
		o = append(o, Member{Key: "cannot_cover", Value: itemsWire(g.CannotCover)})
	}
	return o
}

// Wire returns the envelope in wire form and order.
func (s *Semantics) Wire() Object {
	o := Object{{Key: cw.SemanticsMarker, Value: true}}
	if s.Series != nil {
		o = append(o, Member{Key: "series", Value: s.Series})
	}
	if s.Facts != nil {
		o = append(o, Member{Key: "facts", Value: s.Facts})
	}
	if s.Edges != nil {
		o = append(o, Member{Key: "edges", Value: s.Edges})
	}
	if s.Grain != nil {
		o = append(o, Member{Key: "grain", Value: s.Grain})
	}
	if s.Provenance != nil {
		o = append(o, Member{Key: "provenance", Value: s.Provenance.Wire()})
	}
	if s.Period != nil {
		o = append(o, Member{Key: PeriodKey, Value: s.Period.Wire()})
	}
	if s.Coverage != nil {
		o = append(o, Member{Key: "coverage", Value: s.Coverage.wire()})
		if nc := notCovered(s.Coverage); len(nc) > 0 {
			l := make([]any, len(nc))
			for i, x := range nc {
				l[i] = x
			}
			o = append(o, Member{Key: "not_covered", Value: l})
		}
	}
	if s.Clarify != nil {
		o = append(o, Member{Key: "clarify", Value: s.Clarify})
	} else if s.ClarifyNone {
		o = append(o, Member{Key: "clarify", Value: nil})
	}
	if s.Render != nil {
		o = append(o, Member{Key: "render", Value: s.Render})
	}
	return append(o, Member{Key: "note", Value: SemanticsNote})
}

// MarshalJSON encodes the wire form.
func (s *Semantics) MarshalJSON() ([]byte, error) { return s.Wire().MarshalJSON() }

// semanticsWireProblem is the wire rule set for an af_semantics envelope as the recognizer reads
// it, naming fields in their wire spelling.
func semanticsWireProblem(v any) *Problem { return semanticsRules(v, onWire) }

// semanticsRules is the one rule set for an af_semantics envelope, shared by the mint's self-check
// (sp inCamel: fields named as the author spelled them) and the recognizer (sp onWire). It checks, and
// reports the first fault in this order: the marker; every key and string UTF-8; no unknown key; the data lists non-empty;
// grain; provenance, which series or facts require; period (null is a fault here); series require
// grain; coverage and the not_covered list derived from it; clarify; render; a note; and last,
// that the envelope declares something: rows (series, facts or edges) or a clarify question.
func semanticsRules(v any, sp keySpelling) *Problem {
	o, ok := envelopeObject(v)
	if !ok {
		return problemf(cw.SemanticsMarker, "an af_semantics envelope must be an object")
	}
	if m, _ := o.Get(cw.SemanticsMarker); m != true {
		return problemf(cw.SemanticsMarker, "`%s` must be true", cw.SemanticsMarker)
	}
	if path, bad := utf8Fault(o, "", 0); bad {
		return utf8Problem(path)
	}
	if p := checkUnknown(o, "", SemanticsKeys()); p != nil {
		return p
	}
	for _, k := range []string{"series", "facts", "edges"} {
		x, present := o.Get(k)
		if !present {
			continue
		}
		arr, ok := asArray(x)
		if !ok || len(arr) == 0 {
			return problemf(k, "`%s` must be a non-empty list; to say nothing, leave it out", k)
		}
	}
	_, hasSeries := o.Get("series")
	_, hasFacts := o.Get("facts")
	_, hasEdges := o.Get("edges")
	grain, hasGrain := o.Get("grain")
	if hasGrain {
		if p := grainProblem(grain, sp); p != nil {
			return p
		}
	}
	if x, present := o.Get("provenance"); present {
		if _, p := provenanceRule(x, "provenance", onWire); p != nil {
			p.Field = spell(sp, p.Field)
			return p
		}
	} else if hasSeries || hasFacts {
		return problemf("provenance", "series and facts need `provenance`: %s and %s say when the world was measured and which system of record the values were read from, and a number with neither cannot be trusted or checked",
			"`"+spell(sp, "provenance.measured_at")+"`", "`provenance.source`")
	}
	if x, present := o.Get(PeriodKey); present {
		if x == nil {
			return problemf(PeriodKey, "`period` is null; on the wire a period is declared or left out")
		}
		if p := periodProblemAt(x, onWire, PeriodKey); p != nil {
			p.Field = spell(sp, p.Field)
			return p
		}
	}
	if hasSeries && !hasGrain {
		return problemf("grain", "`series` needs `grain`: without a stated interval and aggregation a reader assumes one, which is how counters get added together and windows of different sizes get compared")
	}
	var g *Ground
	if x, present := o.Get("coverage"); present {
		var p *Problem
		if g, p = groundRule(x, "coverage", onWire); p != nil {
			p.Field = spell(sp, p.Field)
			return p
		}
	}
	want := notCovered(g)
	x, present := o.Get("not_covered")
	var got []string
	if present {
		arr, ok := asArray(x)
		if !ok {
			return problemf("not_covered", "`not_covered` must be a list of text")
		}
		for _, e := range arr {
			s, ok := e.(string)
			if !ok {
				return problemf("not_covered", "`not_covered` must be a list of text")
			}
			got = append(got, s)
		}
	}
	if len(got) != len(want) {
		return problemf("not_covered", "`not_covered` does not match the `coverage` items it is derived from")
	}
	for i := range got {
		if got[i] != want[i] {
			return problemf("not_covered", "`not_covered` does not match the `coverage` items it is derived from")
		}
	}
	clarify, hasClarify := o.Get("clarify")
	if hasClarify {
		if p := clarifyProblem(clarify); p != nil {
			return p
		}
	}
	if x, present := o.Get("render"); present {
		if p := renderProblem(x, sp); p != nil {
			return p
		}
	}
	if n, _ := o.Get("note"); n == nil {
		return problemf("note", "`note` is missing")
	} else if _, ok := n.(string); !ok {
		return problemf("note", "`note` must be text")
	}
	if !hasSeries && !hasFacts && !hasEdges && (!hasClarify || clarify == nil) {
		return problemf(cw.SemanticsMarker, "a described result declares nothing: it needs rows (`series`, `facts` or `edges`) or a `clarify` question. A read that found no rows is an absence: return one instead")
	}
	return nil
}
