// This file holds the Absent door: "I looked here and found nothing", its declaration, its
// refusal order and its wire envelope.

package engine

import (
	"encoding/json"
	"strings"

	cw "github.com/agentfootprint/agentfootprint-go/coverage/wire"
)

// AbsenceDecl is what a tool author declares when a search found nothing. At this typed door an
// empty string or a nil pointer or slice means the field was left out.
type AbsenceDecl struct {
	// What names what was looked for. Required: an absence that cannot say what it did not find
	// looks like a tool that returned nothing by accident.
	What string
	// Checked is the ground the search covered. Required and non-empty, except with Among (the
	// names facet comes first) or CheckedDeclared.
	Checked []Item
	// CheckedDeclared leaves checked to the dispatch funnel, which composes it from the tool's
	// search declaration and the call's arguments. Checked must then be empty.
	CheckedDeclared bool
	// NotChecked is ground this search could have covered and did not.
	NotChecked []Item
	// CannotCover is ground no call to this tool reaches; each item needs a Why.
	CannotCover []Item
	// TryInstead is one sentence for the model on where to go instead.
	TryInstead string
	// TryInsteadTool names the one other tool the suggestion points at, as data.
	TryInsteadTool *ToolSuggestion
	// Provenance says where the search looked and how old that source is. Refused with Among.
	Provenance *Provenance
	// Period says what span of time the search's read covered.
	Period *Period
	// Resolved is the tool's claim of the entity each population value resolved to.
	Resolved []Resolved
	// Paging says whether there is a next page.
	Paging *Paging
	// Among declares the list a missed name was looked up in.
	Among *Among
}

// Absence is a minted af_absent envelope. Its fields are fresh: nothing of the author's is held.
// It encodes with the exact wire key order; [Absence.Wire] returns that form as an [Object].
type Absence struct {
	// LookedFor is what was looked for (looked_for), trimmed.
	LookedFor string
	// Checked is the normalized ground searched; CheckedDeclared mints the literal "declared".
	Checked         []Item
	CheckedDeclared bool
	// NotChecked and CannotCover are the normalized gaps.
	NotChecked  []Item
	CannotCover []Item
	// Provenance, Period, Resolved and Paging are as declared (Provenance composed under Among).
	Provenance *Provenance
	Period     *Period
	Resolved   []Resolved
	Paging     *Paging
	// TryInstead and TryInsteadTool are the suggestions, trimmed.
	TryInstead     string
	TryInsteadTool *ToolSuggestion
	// Among is the name list a missed name was looked up in (its names are never kept).
	Among *Among
}

var absenceFieldsCamel = []string{"what", "checked", "notChecked", "cannotCover", "tryInstead",
	"tryInsteadTool", "provenance", "period", "resolved", "paging", "among"}

// Absent mints an af_absent envelope from a typed declaration, or returns a [*Refusal] naming the
// first fault.
func Absent(d AbsenceDecl) (*Absence, error) {
	if d.CheckedDeclared && len(d.Checked) > 0 {
		return nil, bothCheckedProblem().refusal()
	}
	return AbsentData(d.data())
}

func (d AbsenceDecl) data() Object {
	o := Object{}
	if d.What != "" {
		o = append(o, Member{Key: "what", Value: d.What})
	}
	o = listsData(o, d.Checked, d.CheckedDeclared, d.NotChecked, d.CannotCover)
	if d.TryInstead != "" {
		o = append(o, Member{Key: "tryInstead", Value: d.TryInstead})
	}
	if d.TryInsteadTool != nil {
		o = append(o, Member{Key: "tryInsteadTool", Value: d.TryInsteadTool.object()})
	}
	if d.Provenance != nil {
		o = append(o, Member{Key: "provenance", Value: d.Provenance.object()})
	}
	if d.Period != nil {
		o = append(o, Member{Key: "period", Value: d.Period.object(inCamel)})
	}
	if d.Resolved != nil {
		o = append(o, Member{Key: "resolved", Value: resolvedData(d.Resolved)})
	}
	if d.Paging != nil {
		o = append(o, Member{Key: "paging", Value: Object{{Key: "next", Value: d.Paging.Next}}})
	}
	if d.Among != nil {
		o = append(o, Member{Key: "among", Value: d.Among.object()})
	}
	return o
}

// AbsentData mints an af_absent envelope from a declaration given as data: a decoded JSON object
// ([Object] or map[string]any) or JSON bytes, spelled camelCase as an author writes it. Unknown
// keys and null values are refused or read by the same rules as [Absent].
func AbsentData(decl any) (*Absence, error) {
	a, p := absentFrom(decl)
	if p != nil {
		return nil, p.refusal()
	}
	return a, nil
}

func absentFrom(decl any) (*Absence, *Problem) {
	o, p := declObject(decl, absenceFieldsCamel)
	if p != nil {
		return nil, p
	}
	if p := checkUnknown(o, "", absenceFieldsCamel); p != nil {
		return nil, p
	}
	a := &Absence{}
	w, _ := o.Get("what")
	what, ok := nonBlankString(w)
	if !ok {
		return nil, problemf("what", "`what` must say what was looked for; an absence that cannot name it looks like an empty result returned by accident")
	}
	a.LookedFor = strings.TrimSpace(what)

	among, hasAmong := o.Get("among")
	hasAmong = hasAmong && among != nil
	chk, _ := o.Get("checked")
	if s, isStr := chk.(string); isStr && s == DeclaredChecked {
		a.CheckedDeclared = true
	} else {
		if a.Checked, p = mintList(chk, sectionChecked, "checked"); p != nil {
			return nil, p
		}
	}
	nc, _ := o.Get("notChecked")
	if a.NotChecked, p = mintList(nc, sectionNotChecked, "notChecked"); p != nil {
		return nil, p
	}
	cc, _ := o.Get("cannotCover")
	if a.CannotCover, p = mintList(cc, sectionCannotCover, "cannotCover"); p != nil {
		return nil, p
	}
	if !a.CheckedDeclared && !hasAmong && len(a.Checked) == 0 {
		return nil, problemf("checked", "`checked` is empty for %s: name at least one source, time window or population that was searched. Without it this absence says no more than an empty result; a tool that could not search should return an error instead", clipQuote(a.LookedFor))
	}
	if v, present := o.Get("tryInstead"); present {
		if a.TryInstead, p = tryInsteadRule(v, "tryInstead", true); p != nil {
			return nil, p
		}
	}
	if v, present := o.Get("tryInsteadTool"); present && v != nil {
		if a.TryInsteadTool, p = toolSuggestionRule(v, "tryInsteadTool"); p != nil {
			return nil, p
		}
	}
	if v, present := o.Get("provenance"); present && v != nil {
		if hasAmong {
			return nil, problemf("provenance", "`provenance` is composed from `among.source` and `among.measuredAt`; leave it out when `among` is declared")
		}
		if a.Provenance, p = provenanceRule(v, "provenance", inCamel); p != nil {
			return nil, p
		}
	}
	if v, present := o.Get("period"); present && v != nil {
		if a.Period, p = mintPeriod(v, "period"); p != nil {
			return nil, p
		}
	}
	if v, present := o.Get("resolved"); present && v != nil {
		if a.Resolved, p = resolvedRule(v, "resolved"); p != nil {
			return nil, p
		}
	}
	if v, present := o.Get("paging"); present && v != nil {
		if a.Paging, p = pagingRule(v, "paging"); p != nil {
			return nil, p
		}
	}
	if hasAmong {
		if a.Among, p = amongRule(among, "among"); p != nil {
			return nil, p
		}
		a.Provenance = &Provenance{MeasuredAt: a.Among.MeasuredAt, Source: a.Among.Source}
	}
	return a, nil
}

func bothCheckedProblem() *Problem {
	return problemf("checked", "`checked` is both listed and left to the tool's search declaration; choose one")
}

// declObject reads a data-door declaration as an ordered object, decoding JSON bytes first. A key
// or string that is not UTF-8 is refused, naming where it is.
func declObject(decl any, fields []string) (Object, *Problem) {
	if raw, ok := decl.(json.RawMessage); ok {
		decl = []byte(raw)
	}
	switch t := decl.(type) {
	case []byte:
		v, err := DecodeJSON(t)
		if err != nil {
			return nil, problemf("", "the declaration is not readable JSON (%v)", err)
		}
		decl = v
	}
	o, ok := plainObject(decl)
	if !ok {
		return nil, problemf("", "the declaration must be an object with the fields %s; it is %s", backtickList(fields), clipQuote(decl))
	}
	if path, bad := utf8Fault(o, "", 0); bad {
		return nil, utf8Problem(path)
	}
	return o, nil
}

// Wire returns the envelope in wire form and order.
func (a *Absence) Wire() Object {
	o := Object{{Key: cw.AbsenceMarker, Value: true}, {Key: "outcome", Value: AbsenceOutcome}, {Key: "looked_for", Value: a.LookedFor}}
	if a.CheckedDeclared {
		o = append(o, Member{Key: "checked", Value: DeclaredChecked})
	} else {
		checked := itemsWire(a.Checked)
		if a.Among != nil {
			checked = append([]any{a.Among.facet()}, checked...)
		}
		o = append(o, Member{Key: "checked", Value: checked})
	}
	notChecked := itemsWire(a.NotChecked)
	if a.Among != nil {
		notChecked = append(a.Among.gaps(), notChecked...)
	}
	if len(notChecked) > 0 {
		o = append(o, Member{Key: "not_checked", Value: notChecked})
	}
	if len(a.CannotCover) > 0 {
		o = append(o, Member{Key: "cannot_cover", Value: itemsWire(a.CannotCover)})
	}
	if a.Provenance != nil {
		o = append(o, Member{Key: "provenance", Value: a.Provenance.Wire()})
	}
	if a.Period != nil {
		o = append(o, Member{Key: PeriodKey, Value: a.Period.Wire()})
	}
	if len(a.Resolved) > 0 {
		o = append(o, Member{Key: "resolved", Value: resolvedData(a.Resolved)})
	}
	if a.Paging != nil {
		o = append(o, Member{Key: "paging", Value: Object{{Key: "next", Value: a.Paging.Next}}})
	}
	o = append(o, Member{Key: "retry_returns_the_same", Value: true})
	if a.TryInstead != "" {
		o = append(o, Member{Key: "try_instead", Value: a.TryInstead})
	}
	if a.TryInsteadTool != nil {
		o = append(o, Member{Key: "try_instead_tool", Value: a.TryInsteadTool.object()})
	}
	return append(o, Member{Key: "note", Value: AbsenceNote})
}

// MarshalJSON encodes the wire form.
func (a *Absence) MarshalJSON() ([]byte, error) { return a.Wire().MarshalJSON() }
