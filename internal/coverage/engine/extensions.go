// This file holds the seed-declared extensions of an absence: resolved (which entity each
// population value resolved to), paging (whether there is a next page) and among (the name list a
// missed name was looked up in, and the facet and gaps composed from it).

package engine

import (
	"fmt"
	"math"
	"strings"
	"unicode"
)

// Resolved is the tool's claim that the value sent for Argument resolved to the entity ID. It binds
// that value and no other entity.
type Resolved struct {
	Argument string   `json:"argument"`
	ID       string   `json:"id"`
	Name     string   `json:"name,omitempty"`
	Aliases  []string `json:"aliases,omitempty"`
}

func (r Resolved) object() Object {
	o := Object{{Key: "argument", Value: r.Argument}, {Key: "id", Value: r.ID}}
	if r.Name != "" {
		o = append(o, Member{Key: "name", Value: r.Name})
	}
	if len(r.Aliases) > 0 {
		al := make([]any, len(r.Aliases))
		for i, a := range r.Aliases {
			al[i] = a
		}
		o = append(o, Member{Key: "aliases", Value: al})
	}
	return o
}

func resolvedData(rs []Resolved) []any {
	out := make([]any, len(rs))
	for i, r := range rs {
		out[i] = r.object()
	}
	return out
}

func resolvedRule(v any, at string) ([]Resolved, *Problem) {
	arr, ok := asArray(v)
	if !ok {
		return nil, problemf(at, "%s must be a list of {argument, id, name?, aliases?}; it is %s", rootName(at), typeWord(v))
	}
	out := make([]Resolved, 0, len(arr))
	for i, e := range arr {
		eat := index(at, i)
		o, ok := plainObject(e)
		if !ok {
			return nil, problemf(eat, "%s must be an object {argument, id, name?, aliases?}; it is %s", rootName(eat), clipQuote(e))
		}
		if p := checkUnknown(o, eat, []string{"argument", "id", "name", "aliases"}); p != nil {
			return nil, p
		}
		var r Resolved
		for _, f := range []struct {
			key string
			dst *string
		}{{"argument", &r.Argument}, {"id", &r.ID}} {
			x, _ := o.Get(f.key)
			s, ok := nonBlankString(x)
			if !ok {
				return nil, problemf(join(eat, f.key), "%s is required as non-empty text; it is %s", rootName(join(eat, f.key)), clipQuote(x))
			}
			*f.dst = strings.TrimSpace(s)
		}
		if x, present := o.Get("name"); present && x != nil {
			s, ok := nonBlankString(x)
			if !ok {
				return nil, problemf(join(eat, "name"), "%s must be non-empty text or left out", rootName(join(eat, "name")))
			}
			r.Name = strings.TrimSpace(s)
		}
		if x, present := o.Get("aliases"); present && x != nil {
			al, ok := asArray(x)
			if !ok {
				return nil, problemf(join(eat, "aliases"), "%s must be a list of names", rootName(join(eat, "aliases")))
			}
			for j, a := range al {
				s, ok := nonBlankString(a)
				if !ok {
					return nil, problemf(index(join(eat, "aliases"), j), "%s must be a non-empty name; it is %s", rootName(index(join(eat, "aliases"), j)), clipQuote(a))
				}
				r.Aliases = append(r.Aliases, strings.TrimSpace(s))
			}
		}
		out = append(out, r)
	}
	return out, nil
}

// Paging says whether a result has a next page. Next is the tool's cursor, or nil when there is
// none: {"next": null} says the result is the last page.
type Paging struct {
	Next any
}

func pagingRule(v any, at string) (*Paging, *Problem) {
	o, ok := plainObject(v)
	if !ok {
		return nil, problemf(at, "%s must be an object {next}; it is %s", rootName(at), clipQuote(v))
	}
	if p := checkUnknown(o, at, []string{"next"}); p != nil {
		return nil, p
	}
	n, present := o.Get("next")
	if !present {
		return nil, problemf(join(at, "next"), "%s is required: the next page's cursor, or null when there is no next page", rootName(join(at, "next")))
	}
	fresh, err := freshJSON(n)
	if err != nil {
		return nil, problemf(join(at, "next"), "%s cannot be written as JSON", rootName(join(at, "next")))
	}
	return &Paging{Next: fresh}, nil
}

// Among is the list a missed name was looked up in. The mint composes from it the names facet
// (first in checked), the gap of names outside the source (first in not_checked, removed only by
// Authoritative), a completeness gap when the read was Partial, and the absence's provenance.
// Names is read only to check Count and is never kept, served or recorded.
type Among struct {
	// Argument is the input argument whose value was looked up.
	Argument string
	// Source names the list, in the author's words; one line.
	Source string
	// MeasuredAt says when the list was read, in the tool's own words.
	MeasuredAt string
	// Count is how many names the list holds.
	Count int64
	// Names, when given, must hold exactly Count names.
	Names []string
	// Partial says the read did not see every name in the source.
	Partial bool
	// Authoritative is the author's claim, with a reason, that the source holds every name there
	// is. Every use is listed by [Absence.AuthoritativeWhy] for review.
	Authoritative *Authoritative
}

// Authoritative is the reason an among source is claimed to hold every name there is.
type Authoritative struct {
	Why string
}

func (a Among) object() Object {
	o := Object{{Key: "argument", Value: a.Argument}, {Key: "source", Value: a.Source}, {Key: "measuredAt", Value: a.MeasuredAt}, {Key: "count", Value: a.Count}}
	if a.Names != nil {
		ns := make([]any, len(a.Names))
		for i, n := range a.Names {
			ns[i] = n
		}
		o = append(o, Member{Key: "names", Value: ns})
	}
	if a.Partial {
		o = append(o, Member{Key: "partial", Value: true})
	}
	if a.Authoritative != nil {
		o = append(o, Member{Key: "authoritative", Value: Object{{Key: "why", Value: a.Authoritative.Why}}})
	}
	return o
}

// NamesCountMismatch is the code in the refusal of an among whose names disagree with its count.
const NamesCountMismatch = "names-count-mismatch"

func amongRule(v any, at string) (*Among, *Problem) {
	o, ok := plainObject(v)
	if !ok {
		return nil, problemf(at, "%s must be an object {argument, source, measuredAt, count, names?, partial?, authoritative?}; it is %s", rootName(at), clipQuote(v))
	}
	if p := checkUnknown(o, at, []string{"argument", "source", "measuredAt", "count", "names", "partial", "authoritative"}); p != nil {
		return nil, p
	}
	var a Among
	for _, f := range []struct {
		key string
		dst *string
	}{{"argument", &a.Argument}, {"source", &a.Source}, {"measuredAt", &a.MeasuredAt}} {
		x, _ := o.Get(f.key)
		s, ok := nonBlankString(x)
		if !ok {
			return nil, problemf(join(at, f.key), "%s is required as non-empty text; it is %s", rootName(join(at, f.key)), clipQuote(x))
		}
		if f.key == "measuredAt" {
			*f.dst = s
		} else {
			*f.dst = strings.TrimSpace(s)
		}
	}
	for _, r := range a.Source {
		if unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp) {
			return nil, problemf(join(at, "source"), "%s must be one visible line; it holds U+%04X", rootName(join(at, "source")), r)
		}
	}
	c, _ := o.Get("count")
	f, ok := numberOf(c)
	if !ok || f != math.Trunc(f) || f < 0 || f > maxCount {
		return nil, problemf(join(at, "count"), "%s must be the whole number of names the list holds; it is %s", rootName(join(at, "count")), clipQuote(c))
	}
	a.Count = int64(f)
	if x, present := o.Get("names"); present && x != nil {
		ns, ok := asArray(x)
		if !ok {
			return nil, problemf(join(at, "names"), "%s must be a list of names", rootName(join(at, "names")))
		}
		for j, n := range ns {
			if _, ok := n.(string); !ok {
				return nil, problemf(index(join(at, "names"), j), "%s must be a name; it is %s", rootName(index(join(at, "names"), j)), typeWord(n))
			}
		}
		if int64(len(ns)) != a.Count {
			return nil, problemf(join(at, "names"), "%s: %s holds %d names but `count` says %d", NamesCountMismatch, rootName(join(at, "names")), len(ns), a.Count)
		}
	}
	if x, present := o.Get("partial"); present && x != nil {
		b, ok := x.(bool)
		if !ok {
			return nil, problemf(join(at, "partial"), "%s must be true or false; it is %s", rootName(join(at, "partial")), clipQuote(x))
		}
		a.Partial = b
	}
	if x, present := o.Get("authoritative"); present && x != nil {
		ao, ok := plainObject(x)
		if !ok {
			return nil, problemf(join(at, "authoritative"), "%s must be an object {why}; it is %s", rootName(join(at, "authoritative")), clipQuote(x))
		}
		if p := checkUnknown(ao, join(at, "authoritative"), []string{"why"}); p != nil {
			return nil, p
		}
		y, _ := ao.Get("why")
		why, ok := nonBlankString(y)
		if !ok {
			return nil, problemf(join(at, "authoritative.why"), "%s is required: say why the source holds every name there is", rootName(join(at, "authoritative.why")))
		}
		a.Authoritative = &Authoritative{Why: strings.TrimSpace(why)}
	}
	return &a, nil
}

// facet is the names facet: first in checked, written from the declaration and never from the
// looked-for value.
func (a Among) facet() Object {
	o := Object{
		{Key: "what", Value: fmt.Sprintf("the names in %s", a.Source)},
		{Key: "facet", Value: "names"},
		{Key: "argument", Value: a.Argument},
		{Key: "count", Value: a.Count},
		{Key: "source", Value: a.Source},
		{Key: "from", Value: "result"},
	}
	if a.Authoritative != nil {
		o = append(o, Member{Key: "authoritative", Value: Object{{Key: "why", Value: a.Authoritative.Why}}})
	}
	if _, ok := ParseInstant(a.MeasuredAt); ok {
		o = append(o, Member{Key: "note", Value: "names as of " + a.MeasuredAt})
	}
	return o
}

// gaps are the items an among miss puts first in not_checked.
func (a Among) gaps() []any {
	var out []any
	if a.Authoritative == nil {
		out = append(out, Object{
			{Key: "what", Value: fmt.Sprintf("names outside %s", a.Source)},
			{Key: "why", Value: "the lookup searched this one list only"},
			{Key: "kind", Value: string(KindScope)},
			{Key: "relevance", Value: "bears"},
			{Key: "bears", Value: "source"},
		})
	}
	if a.Partial {
		out = append(out, Object{
			{Key: "what", Value: fmt.Sprintf("names in %s that this read did not see", a.Source)},
			{Key: "why", Value: "the read of the list was partial"},
			{Key: "kind", Value: string(KindScope)},
			{Key: "relevance", Value: "bears"},
			{Key: "bears", Value: "completeness"},
		})
	}
	return out
}

// AuthoritativeWhy returns the reason the absence's among source was declared authoritative, for
// review; false when it was not.
func (a *Absence) AuthoritativeWhy() (string, bool) {
	if a == nil || a.Among == nil || a.Among.Authoritative == nil {
		return "", false
	}
	return a.Among.Authoritative.Why, true
}
