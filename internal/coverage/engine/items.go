// This file holds coverage items and in-progress items: their Go types, the one rule set a mint
// applies, and the lenient copy a reader makes of a foreign list.

package engine

import (
	"fmt"
	"math"
	"strings"
	"unicode"

	"github.com/agentfootprint/agentfootprint-go/internal/textlen"
)

// Item is one piece of ground: a source, a window, a filter or a population, in the author's
// words, and optionally why it sits in its list. Short and Kind are record-only: the record keeps
// them and the model is never served them. At the typed door an empty string means omitted.
type Item struct {
	// What names the ground. Required.
	What string `json:"what"`
	// Why says why the ground is where it is. Required on cannotCover.
	Why string `json:"why,omitempty"`
	// Short is a plain short form of What for a person's report: one visible line, at most 80
	// UTF-16 units and never longer than What. Never build it from call arguments.
	Short string `json:"short,omitempty"`
	// Kind says what kind of unreached ground this is; refused on checked.
	Kind ItemKind `json:"kind,omitempty"`
}

// InProgressItem is something the read saw still running, whose outcome is not known yet. Count is
// how many things the entry stands for; zero means omitted, which reads as one.
type InProgressItem struct {
	What  string `json:"what"`
	Why   string `json:"why,omitempty"`
	Short string `json:"short,omitempty"`
	Count int64  `json:"count,omitempty"`
}

func (it Item) object() Object {
	o := Object{{Key: "what", Value: it.What}}
	if it.Why != "" {
		o = append(o, Member{Key: "why", Value: it.Why})
	}
	if it.Short != "" {
		o = append(o, Member{Key: "short", Value: it.Short})
	}
	if it.Kind != "" {
		o = append(o, Member{Key: "kind", Value: string(it.Kind)})
	}
	return o
}

func (it InProgressItem) object() Object {
	o := Object{{Key: "what", Value: it.What}}
	if it.Why != "" {
		o = append(o, Member{Key: "why", Value: it.Why})
	}
	if it.Short != "" {
		o = append(o, Member{Key: "short", Value: it.Short})
	}
	if it.Count != 0 {
		o = append(o, Member{Key: CountKey, Value: it.Count})
	}
	return o
}

// listsData appends the typed door's three lists as data; nil lists are left out.
func listsData(o Object, checked []Item, declared bool, notChecked, cannotCover []Item) Object {
	if declared {
		o = append(o, Member{Key: "checked", Value: DeclaredChecked})
	} else if checked != nil {
		o = append(o, Member{Key: "checked", Value: itemsData(checked)})
	}
	if notChecked != nil {
		o = append(o, Member{Key: "notChecked", Value: itemsData(notChecked)})
	}
	if cannotCover != nil {
		o = append(o, Member{Key: "cannotCover", Value: itemsData(cannotCover)})
	}
	return o
}

// itemsData is the typed door's list as data: nil stays nil (left out).
func itemsData(items []Item) any {
	if items == nil {
		return nil
	}
	return itemsWire(items)
}

func inProgressData(items []InProgressItem) any {
	if items == nil {
		return nil
	}
	return inProgressWire(items)
}

func itemsWire(items []Item) []any {
	out := make([]any, len(items))
	for i, it := range items {
		out[i] = it.object()
	}
	return out
}

func inProgressWire(items []InProgressItem) []any {
	out := make([]any, len(items))
	for i, it := range items {
		out[i] = it.object()
	}
	return out
}

// section names one of the three lists.
type section int

const (
	sectionChecked section = iota
	sectionNotChecked
	sectionCannotCover
)

func (s section) name(sp keySpelling) string {
	switch s {
	case sectionChecked:
		return "checked"
	case sectionNotChecked:
		return sp.notChecked()
	default:
		return sp.cannotCover()
	}
}

// mintList normalizes one list at a door: v is the JSON-shaped value, nil when omitted.
func mintList(v any, sec section, at string) ([]Item, *Problem) {
	if v == nil {
		return []Item{}, nil
	}
	arr, ok := asArray(v)
	if !ok {
		return nil, problemf(at, "%s must be a list; it is %s. Leaving the field out means it was not declared, which is not the same as declaring empty ground", rootName(at), typeWord(v))
	}
	out := make([]Item, 0, len(arr))
	for i, e := range arr {
		eat := index(at, i)
		if s, isStr := e.(string); isStr && !isBlank(s) {
			if sec == sectionCannotCover {
				return nil, problemf(eat, "%s is %s with no reason: ground that is never reachable needs one. Write {what, why}, or move the entry to notChecked", rootName(eat), clipQuote(s))
			}
			out = append(out, Item{What: strings.TrimSpace(s)})
			continue
		}
		o, isObj := plainObject(e)
		var what string
		if isObj {
			w, _ := o.Get("what")
			what, _ = nonBlankString(w)
		}
		if what == "" {
			return nil, problemf(eat, "%s names no ground (it is %s); write a non-empty string or {what, why?}", rootName(eat), clipQuote(e))
		}
		what = strings.TrimSpace(what)
		it := Item{What: what}
		if w, present := o.Get("why"); present {
			why, ok := nonBlankString(w)
			if !ok {
				return nil, problemf(join(eat, "why"), "%s for %s is empty or not text; write a real reason or leave the field out", rootName(join(eat, "why")), clipQuote(what))
			}
			it.Why = strings.TrimSpace(why)
		}
		if sec == sectionCannotCover && it.Why == "" {
			return nil, problemf(join(eat, "why"), "%s is required for %s: ground that no call to this tool can reach must say why", rootName(join(eat, "why")), clipQuote(what))
		}
		if s, present := o.Get("short"); present && s != nil {
			short, p := shortProblem(s, what, join(eat, "short"))
			if p != nil {
				return nil, p
			}
			it.Short = short
		}
		if k, present := o.Get("kind"); present && k != nil {
			kind, p := kindProblem(k, sec, what, join(eat, "kind"))
			if p != nil {
				return nil, p
			}
			it.Kind = kind
		}
		out = append(out, it)
	}
	return out, nil
}

// shortProblem applies the short rule and returns the trimmed short.
func shortProblem(v any, what, at string) (string, *Problem) {
	s, ok := nonBlankString(v)
	if !ok {
		return "", problemf(at, "%s for %s must be non-empty text; leave it out and readers use `what` instead", rootName(at), clipQuote(what))
	}
	// The line check reads the value as written, so a trailing newline is named, not trimmed away.
	for _, r := range s {
		if unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp) {
			return "", problemf(at, "%s for %s must be one visible line; it holds U+%04X", rootName(at), clipQuote(what), r)
		}
	}
	s = strings.TrimSpace(s)
	if n := textlen.UTF16(s); n > MaxShortChars {
		return "", problemf(at, "%s for %s is %d characters long; the limit is %d", rootName(at), clipQuote(what), n, MaxShortChars)
	}
	if textlen.UTF16(s) > textlen.UTF16(strings.TrimSpace(what)) {
		return "", problemf(at, "%s for %s is longer than `what`; a short form may not be longer than what it shortens", rootName(at), clipQuote(what))
	}
	return s, nil
}

func kindProblem(v any, sec section, what, at string) (ItemKind, *Problem) {
	if sec == sectionChecked {
		return "", problemf(at, "%s for %s is not allowed on `checked`: a kind names ground that was not reached", rootName(at), clipQuote(what))
	}
	s, _ := v.(string)
	switch ItemKind(s) {
	case KindExistence, KindScope:
		return ItemKind(s), nil
	default:
		return "", problemf(at, "%s for %s is %s; it must be `%s` or `%s`", rootName(at), clipQuote(what), clipQuote(v), KindExistence, KindScope)
	}
}

// maxCount is 2^53-1, the largest whole number every JSON reader holds exactly.
const maxCount = 1<<53 - 1

// inProgressList applies the in-progress rule set. strict is the mint (unknown keys refused);
// otherwise it is the wire reader (unknown keys ride along uncopied).
func inProgressList(v any, at string, strict bool) ([]InProgressItem, *Problem) {
	arr, ok := asArray(v)
	if !ok {
		return nil, problemf(at, "%s must be a list; if nothing was in flight, leave the field out", rootName(at))
	}
	out := make([]InProgressItem, 0, len(arr))
	known := InProgressItemKeys()
	for i, e := range arr {
		eat := index(at, i)
		if s, isStr := e.(string); isStr {
			if isBlank(s) {
				return nil, problemf(eat, "%s is blank; name the thing that was in flight", rootName(eat))
			}
			out = append(out, InProgressItem{What: strings.TrimSpace(s)})
			continue
		}
		o, isObj := plainObject(e)
		if !isObj {
			return nil, problemf(eat, "%s must be a non-empty string or an item {what, why?, short?, count?}; it is %s", rootName(eat), typeWord(e))
		}
		if strict {
			if _, has := o.Get("kind"); has {
				return nil, problemf(join(eat, "kind"), "%s is not allowed here: a kind names ground a call did not reach, and work in flight is ground the call read", rootName(join(eat, "kind")))
			}
			if p := checkUnknown(o, eat, known); p != nil {
				return nil, p
			}
		}
		w, _ := o.Get("what")
		what, ok := nonBlankString(w)
		if !ok {
			return nil, problemf(join(eat, "what"), "%s must name the thing in flight as non-empty text; it is %s", rootName(join(eat, "what")), clipQuote(w))
		}
		it := InProgressItem{What: strings.TrimSpace(what)}
		if y, present := o.Get("why"); present && y != nil {
			why, ok := nonBlankString(y)
			if !ok {
				return nil, problemf(join(eat, "why"), "%s for %s is empty or not text; write a reason or leave it out", rootName(join(eat, "why")), clipQuote(what))
			}
			it.Why = strings.TrimSpace(why)
		}
		if s, present := o.Get("short"); present && s != nil {
			short, p := shortProblem(s, what, join(eat, "short"))
			if p != nil {
				return nil, p
			}
			it.Short = short
		}
		if c, present := o.Get(CountKey); present && c != nil {
			f, ok := numberOf(c)
			if !ok || f != math.Trunc(f) || f < 1 || f > maxCount {
				return nil, problemf(join(eat, CountKey), "%s is %s; it must be a whole number of at least one, or left out for one", rootName(join(eat, CountKey)), clipQuote(c))
			}
			it.Count = int64(f)
		}
		out = append(out, it)
	}
	return out, nil
}

// readWireList copies a foreign list for the record without repairing it: items naming no ground
// are skipped and invalid short/kind values dropped, each reported as a problem.
func readWireList(v any, sec section) ([]Item, []Problem) {
	at := sec.name(onWire)
	arr, ok := asArray(v)
	if !ok {
		return []Item{}, nil
	}
	out := make([]Item, 0, len(arr))
	var probs []Problem
	for i, e := range arr {
		eat := index(at, i)
		if s, isStr := e.(string); isStr {
			if isBlank(s) {
				probs = append(probs, Problem{eat, fmt.Sprintf("%s is blank and names no ground; it was left off the record", rootName(eat))})
				continue
			}
			out = append(out, Item{What: s})
			continue
		}
		o, isObj := plainObject(e)
		var what string
		if isObj {
			w, _ := o.Get("what")
			what, _ = nonBlankString(w)
		}
		if what == "" {
			probs = append(probs, Problem{eat, fmt.Sprintf("%s names no ground (it is %s); it was left off the record", rootName(eat), clipQuote(e))})
			continue
		}
		it := Item{What: what}
		if y, _ := o.Get("why"); y != nil {
			it.Why, _ = nonBlankString(y)
		}
		if s, present := o.Get("short"); present && s != nil {
			if short, p := shortProblem(s, what, join(eat, "short")); p != nil {
				probs = append(probs, *p)
			} else {
				it.Short = short
			}
		}
		if k, present := o.Get("kind"); present && k != nil {
			if kind, p := kindProblem(k, sec, what, join(eat, "kind")); p != nil {
				probs = append(probs, *p)
			} else {
				it.Kind = kind
			}
		}
		out = append(out, it)
	}
	return out, probs
}
