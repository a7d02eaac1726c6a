// This file holds provenance (where a read looked and how old that source is) and the two
// suggestion fields of an absence: the tryInstead sentence and the tryInsteadTool data.

package engine

import (
	"strings"
	"unicode"
)

// Provenance says where a read looked and how old that source is. MeasuredAt is the tool's own
// words and is never parsed. Values are kept exactly as written, never trimmed.
type Provenance struct {
	// MeasuredAt says when the source was measured. Required.
	MeasuredAt string `json:"measuredAt"`
	// AgeSeconds is the source's age; nil when not declared. Finite and not negative.
	AgeSeconds *float64 `json:"ageSeconds,omitempty"`
	// Source names the system of record. Required.
	Source string `json:"source"`
	// SourceExportDate names the export the source came from; optional.
	SourceExportDate string `json:"sourceExportDate,omitempty"`

	// order is the author's key order when the provenance was declared as data: each entry is an
	// index into provenanceCamel plus one, zero for none. All zero means the order of the fields
	// above. The wire keeps the author's order, respelled.
	order [4]uint8
}

var provenanceCamel = []string{"measuredAt", "ageSeconds", "source", "sourceExportDate"}

func (p Provenance) object() Object { return p.spelled(provenanceCamel) }

// Wire returns the provenance in wire order: measured_at, age_seconds?, source,
// source_export_date?.
func (p Provenance) Wire() Object { return p.spelled(ProvenanceKeys()) }

// spelled writes the provenance with keys named (index for index) measuredAt, ageSeconds, source,
// sourceExportDate, in the author's order when one was recorded and in that order otherwise.
func (p Provenance) spelled(keys []string) Object {
	order := p.order
	if order[0] == 0 {
		order = [4]uint8{1, 2, 3, 4}
	}
	o := Object{}
	for _, n := range order {
		switch n {
		case 1:
			o = append(o, Member{Key: keys[0], Value: p.MeasuredAt})
		case 2:
			if p.AgeSeconds != nil {
				o = append(o, Member{Key: keys[1], Value: *p.AgeSeconds})
			}
		case 3:
			o = append(o, Member{Key: keys[2], Value: p.Source})
		case 4:
			if p.SourceExportDate != "" {
				o = append(o, Member{Key: keys[3], Value: p.SourceExportDate})
			}
		}
	}
	return o
}

// provenanceRule checks a provenance object spelled sp and returns the typed value.
func provenanceRule(v any, at string, sp keySpelling) (*Provenance, *Problem) {
	keys := provenanceCamel
	if sp == onWire {
		keys = ProvenanceKeys()
	}
	o, ok := plainObject(v)
	if !ok {
		return nil, problemf(at, "%s must be an object {%s}; it is %s", rootName(at), strings.Join(keys, ", "), clipQuote(v))
	}
	if p := checkUnknown(o, at, keys); p != nil {
		return nil, p
	}
	var out Provenance
	m, _ := o.Get(keys[0])
	ms, ok := nonBlankString(m)
	if !ok {
		return nil, problemf(join(at, keys[0]), "%s is required: when the source was measured, in the tool's own words", rootName(join(at, keys[0])))
	}
	out.MeasuredAt = ms
	s, _ := o.Get(keys[2])
	ss, ok := nonBlankString(s)
	if !ok {
		return nil, problemf(join(at, keys[2]), "%s is required: the name of the system of record the read looked in", rootName(join(at, keys[2])))
	}
	out.Source = ss
	if a, present := o.Get(keys[1]); present && a != nil {
		f, ok := numberOf(a)
		if !ok || f < 0 {
			return nil, problemf(join(at, keys[1]), "%s is %s; it must be a finite number of seconds, zero or more", rootName(join(at, keys[1])), clipQuote(a))
		}
		out.AgeSeconds = &f
	}
	if e, present := o.Get(keys[3]); present && e != nil {
		es, ok := nonBlankString(e)
		if !ok {
			return nil, problemf(join(at, keys[3]), "%s must be non-empty text or left out; it is %s", rootName(join(at, keys[3])), clipQuote(e))
		}
		out.SourceExportDate = es
	}
	if sp == inCamel {
		i := 0
		for _, m := range o {
			if m.Value == nil {
				continue
			}
			for j, k := range keys {
				if m.Key == k {
					out.order[i] = uint8(j + 1)
					i++
				}
			}
		}
	}
	return &out, nil
}

// ToolSuggestion names the one other tool an absence points at, as data beside the tryInstead
// sentence. The tool is never looked up: a provider may serve it later.
type ToolSuggestion struct {
	Tool string `json:"tool"`
	Why  string `json:"why,omitempty"`
}

func (t ToolSuggestion) object() Object {
	o := Object{{Key: "tool", Value: t.Tool}}
	if t.Why != "" {
		o = append(o, Member{Key: "why", Value: t.Why})
	}
	return o
}

// tryInsteadRule reads the tryInstead sentence. A plain object is refused (strict only); any other
// non-string, or a blank string, means no suggestion.
func tryInsteadRule(v any, at string, strict bool) (string, *Problem) {
	if _, isObj := plainObject(v); isObj && strict {
		return "", problemf(at, "%s is prose for the model only; name the other tool as data in `tryInsteadTool`", rootName(at))
	}
	s, ok := v.(string)
	if !ok || isBlank(s) {
		return "", nil
	}
	return strings.TrimSpace(s), nil
}

// toolSuggestionRule reads tryInsteadTool: one object {tool, why?}.
func toolSuggestionRule(v any, at string) (*ToolSuggestion, *Problem) {
	if _, isArr := asArray(v); isArr {
		return nil, problemf(at, "%s names a single tool; a list is not accepted", rootName(at))
	}
	o, ok := plainObject(v)
	if !ok {
		return nil, problemf(at, "%s must be an object {tool, why?}; it is %s", rootName(at), clipQuote(v))
	}
	if p := checkUnknown(o, at, []string{"tool", "why"}); p != nil {
		return nil, p
	}
	t, _ := o.Get("tool")
	tool, ok := nonBlankString(t)
	if !ok {
		return nil, problemf(join(at, "tool"), "%s must name the tool, as a call would name it", rootName(join(at, "tool")))
	}
	out := &ToolSuggestion{Tool: strings.TrimSpace(tool)}
	if y, present := o.Get("why"); present && y != nil {
		why, ok := nonBlankString(y)
		if !ok {
			return nil, problemf(join(at, "why"), "%s is empty or not text; write why that tool helps, or leave it out", rootName(join(at, "why")))
		}
		out.Why = strings.TrimSpace(why)
	}
	return out, nil
}

func oddToolName(s string) bool {
	for _, r := range s {
		if !(r == '_' || r == '-' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return true
		}
	}
	return false
}
