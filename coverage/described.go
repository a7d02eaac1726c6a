// This file holds the Described door: typed rows read from a system of record, with their
// provenance, period and coverage, and the wire rule set its recognizer shares with the mint.

package coverage

import (
	"strings"
)

// Ground is the three coverage lists of a described result.
type Ground struct {
	Checked     []Item `json:"checked"`
	NotChecked  []Item `json:"notChecked"`
	CannotCover []Item `json:"cannotCover"`
}

// DescribedDecl is what a tool author declares for rows read from a system of record. The data
// vocabulary (Series, Facts, Edges, Grain, Clarify, Render) belongs to the semantics layer; this
// door copies it as JSON data and checks only that at least one data list is given and none is
// empty. Provenance and Period follow the absence rules; Coverage holds the three lists and may not
// be empty. A nil value means left out.
type DescribedDecl struct {
	Series     []any
	Facts      []any
	Edges      []any
	Grain      any
	Provenance *Provenance
	Period     *Period
	Coverage   *Ground
	Clarify    any
	Render     any
}

// Semantics is a minted af_semantics envelope. Data values are fresh JSON-shaped copies; the
// fields mirror [DescribedDecl], and not_covered is derived from Coverage when encoded.
type Semantics struct {
	Series     []any
	Facts      []any
	Edges      []any
	Grain      any
	Provenance *Provenance
	Period     *Period
	Coverage   *Ground
	Clarify    any
	Render     any
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
			o = append(o, Member{k, v})
		}
	}
	add("series", d.Series, d.Series != nil)
	add("facts", d.Facts, d.Facts != nil)
	add("edges", d.Edges, d.Edges != nil)
	add("grain", d.Grain, d.Grain != nil)
	if d.Provenance != nil {
		add("provenance", d.Provenance.object(), true)
	}
	if d.Period != nil {
		add("period", d.Period.object(Camel), true)
	}
	if d.Coverage != nil {
		add("coverage", listsData(Object{}, d.Coverage.Checked, false, d.Coverage.NotChecked, d.Coverage.CannotCover), true)
	}
	add("clarify", d.Clarify, d.Clarify != nil)
	add("render", d.Render, d.Render != nil)
	return o
}

// DescribedData mints an af_semantics envelope from a declaration given as data (a decoded JSON
// object or JSON bytes, camelCase), by the same rules as [Described].
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
	anyData := false
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
		anyData = true
	}
	if !anyData {
		return nil, problemf("", "a described result needs at least one of `series`, `facts` or `edges`; a read that found no rows is an absence: return one instead")
	}
	for _, f := range []struct {
		key string
		dst *any
	}{{"grain", &s.Grain}, {"clarify", &s.Clarify}, {"render", &s.Render}} {
		v, present := o.Get(f.key)
		if !present || v == nil {
			continue
		}
		fresh, err := freshJSON(v)
		if err != nil {
			return nil, problemf(f.key, "`%s` cannot be written as JSON", f.key)
		}
		*f.dst = fresh
	}
	if v, present := o.Get("provenance"); present && v != nil {
		if s.Provenance, p = provenanceRule(v, "provenance", Camel); p != nil {
			return nil, p
		}
	}
	if v, present := o.Get("period"); present && v != nil {
		if s.Period, p = mintPeriod(v, "period"); p != nil {
			return nil, p
		}
	}
	if v, present := o.Get("coverage"); present && v != nil {
		if s.Coverage, p = groundRule(v, "coverage", Camel); p != nil {
			return nil, p
		}
	}
	if p := semanticsWireProblem(s.Wire()); p != nil {
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
func groundRule(v any, at string, sp Spelling) (*Ground, *Problem) {
	fields := groundFieldsCamel
	if sp == Wire {
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
		o = append(o, Member{"checked", itemsWire(g.Checked)})
	}
	if len(g.NotChecked) > 0 {
		o = append(o, Member{"not_checked", itemsWire(g.NotChecked)})
	}
	if len(g.CannotCover) > 0 {
		o = append(o, Member{"cannot_cover", itemsWire(g.CannotCover)})
	}
	return o
}

// Wire returns the envelope in wire form and order.
func (s *Semantics) Wire() Object {
	o := Object{{SemanticsMarker, true}}
	if s.Series != nil {
		o = append(o, Member{"series", s.Series})
	}
	if s.Facts != nil {
		o = append(o, Member{"facts", s.Facts})
	}
	if s.Edges != nil {
		o = append(o, Member{"edges", s.Edges})
	}
	if s.Grain != nil {
		o = append(o, Member{"grain", s.Grain})
	}
	if s.Provenance != nil {
		o = append(o, Member{"provenance", s.Provenance.Wire()})
	}
	if s.Period != nil {
		o = append(o, Member{PeriodKey, s.Period.Wire()})
	}
	if s.Coverage != nil {
		o = append(o, Member{"coverage", s.Coverage.wire()})
		if nc := notCovered(s.Coverage); len(nc) > 0 {
			l := make([]any, len(nc))
			for i, x := range nc {
				l[i] = x
			}
			o = append(o, Member{"not_covered", l})
		}
	}
	if s.Clarify != nil {
		o = append(o, Member{"clarify", s.Clarify})
	}
	if s.Render != nil {
		o = append(o, Member{"render", s.Render})
	}
	return append(o, Member{"note", SemanticsNote})
}

// MarshalJSON encodes the wire form.
func (s *Semantics) MarshalJSON() ([]byte, error) { return s.Wire().MarshalJSON() }

// semanticsWireProblem is the wire rule set for an af_semantics envelope, shared by the mint's
// self-check and the recognizer: the marker, no unknown key, data lists non-empty, provenance,
// period (null is a fault here), coverage, not_covered matching coverage, and a note.
func semanticsWireProblem(v any) *Problem {
	o, ok := envelopeObject(v)
	if !ok {
		return problemf("", "an af_semantics envelope must be an object")
	}
	if m, _ := o.Get(SemanticsMarker); m != true {
		return problemf(SemanticsMarker, "`%s` must be true", SemanticsMarker)
	}
	if p := checkUnknown(o, "", SemanticsKeys()); p != nil {
		return p
	}
	anyData := false
	for _, k := range []string{"series", "facts", "edges"} {
		x, present := o.Get(k)
		if !present {
			continue
		}
		arr, ok := asArray(x)
		if !ok || len(arr) == 0 {
			return problemf(k, "`%s` must be a non-empty list", k)
		}
		anyData = true
	}
	if !anyData {
		return problemf("", "an af_semantics envelope carries at least one of `series`, `facts` or `edges`")
	}
	if x, present := o.Get("grain"); present && x == nil {
		return problemf("grain", "`grain` is null; leave it out instead")
	}
	if x, present := o.Get("provenance"); present {
		if _, p := provenanceRule(x, "provenance", Wire); p != nil {
			return p
		}
	}
	if x, present := o.Get(PeriodKey); present {
		if x == nil {
			return problemf(PeriodKey, "`period` is null; on the wire a period is declared or left out")
		}
		if p := periodProblemAt(x, Wire, PeriodKey); p != nil {
			return p
		}
	}
	var g *Ground
	if x, present := o.Get("coverage"); present {
		var p *Problem
		if g, p = groundRule(x, "coverage", Wire); p != nil {
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
	if n, _ := o.Get("note"); n == nil {
		return problemf("note", "`note` is missing")
	} else if _, ok := n.(string); !ok {
		return problemf("note", "`note` must be text")
	}
	return nil
}
