// This file holds the small objects a described result may carry beside its rows — grain, clarify
// and render — in their two spellings (camelCase as an author writes them, snake_case on the wire)
// and the wire rules each of them keeps.

package engine

import (
	"strings"
)

// Grain says what one value of a described result means, when that is not what a reader would
// assume. It is required beside Series.
type Grain struct {
	// Interval is the collection interval the values live on ("30m", "1h", "daily").
	Interval string
	// Aggregation says how the values were folded ("avg", "max", "sum", "count").
	Aggregation string
	// IsCounter says whether the values are counters, which a reader must never add together. It
	// must be stated (true or false) when Aggregation holds a counter word such as "sum" or
	// "count"; nil leaves it unstated. The wire spells it is_counter.
	IsCounter *bool
	// Collapsed says what was folded away ("per-port rows collapsed to per-switch").
	Collapsed string
}

// Clarify is a question a described result hands back instead of picking one answer silently: the
// model reads it and decides what to ask. It never pauses the run.
type Clarify struct {
	// Question is what the person should be asked. Required.
	Question string
	// Candidates are the answers the question chooses between; empty is an open question.
	Candidates []any
}

// Render holds presentation hints for a user interface. The model is never served them.
type Render struct {
	// Default names the default presentation ("table", "chart", "prose"). Required.
	Default string
	// Columns is the column order of a tabular view; nil leaves it out.
	Columns []string
	// Sort is a sort hint ("avg_iops desc").
	Sort string
	// FilterNote says what filtering already happened ("replicas excluded"). Wire: filter_note.
	FilterNote string
	// ChartHint is a chart-shape hint ("line per entity"). Wire: chart_hint.
	ChartHint string
}

// The keys of each object, camelCase (author) and wire, index for index.
var (
	grainCamel  = []string{"interval", "aggregation", "isCounter", "collapsed"}
	grainWire   = []string{"interval", "aggregation", "is_counter", "collapsed"}
	renderCamel = []string{"default", "columns", "sort", "filterNote", "chartHint"}
	renderWire  = []string{"default", "columns", "sort", "filter_note", "chart_hint"}
	clarifyKeys = []string{"question", "candidates"}
)

// camelOf maps each snake_case wire key whose author spelling differs to that spelling, so a
// refusal at the author door names the field as the author wrote it.
var camelOf = map[string]string{
	"is_counter":         "isCounter",
	"measured_at":        "measuredAt",
	"age_seconds":        "ageSeconds",
	"source_export_date": "sourceExportDate",
	"filter_note":        "filterNote",
	"chart_hint":         "chartHint",
	"not_checked":        "notChecked",
	"cannot_cover":       "cannotCover",
	"read_at":            "readAt",
}

// spell writes a wire field path in the spelling sp: unchanged for onWire, each respelled segment in
// camelCase for inCamel. Indexes ("[0]") are kept.
func spell(sp keySpelling, path string) string {
	if sp == onWire {
		return path
	}
	parts := strings.Split(path, ".")
	for i, seg := range parts {
		name, idx, _ := strings.Cut(seg, "[")
		if c, ok := camelOf[name]; ok {
			if idx != "" {
				c += "[" + idx
			}
			parts[i] = c
		}
	}
	return strings.Join(parts, ".")
}

// counterWords are the aggregation words that make grain.is_counter required. They match whole
// tokens, singular or plural, in any case: "sum" and "Counts" look like counters, "summary" does
// not.
var counterWords = []string{"sum", "count", "total", "cumulative", "counter", "delta"}

// counterLooking reports whether an aggregation names a counter word.
func counterLooking(aggregation string) bool {
	tokens := strings.FieldsFunc(strings.ToLower(aggregation), func(r rune) bool { return r < 'a' || r > 'z' })
	for _, t := range tokens {
		for _, w := range counterWords {
			if t == w || t == w+"s" {
				return true
			}
		}
	}
	return false
}

func (g Grain) object() Object {
	o := Object{}
	if g.Interval != "" {
		o = append(o, Member{Key: "interval", Value: g.Interval})
	}
	if g.Aggregation != "" {
		o = append(o, Member{Key: "aggregation", Value: g.Aggregation})
	}
	if g.IsCounter != nil {
		o = append(o, Member{Key: "isCounter", Value: *g.IsCounter})
	}
	if g.Collapsed != "" {
		o = append(o, Member{Key: "collapsed", Value: g.Collapsed})
	}
	return o
}

func (c Clarify) object() Object {
	cands := make([]any, len(c.Candidates))
	copy(cands, c.Candidates)
	return Object{{Key: "question", Value: c.Question}, {Key: "candidates", Value: cands}}
}

func (r Render) object() Object {
	o := Object{{Key: "default", Value: r.Default}}
	if r.Columns != nil {
		cols := make([]any, len(r.Columns))
		for i, c := range r.Columns {
			cols[i] = c
		}
		o = append(o, Member{Key: "columns", Value: cols})
	}
	for _, m := range []Member{{Key: "sort", Value: r.Sort}, {Key: "filterNote", Value: r.FilterNote}, {Key: "chartHint", Value: r.ChartHint}} {
		if m.Value != "" {
			o = append(o, m)
		}
	}
	return o
}

// respelledObject reads an author's (camelCase) object at the described door: it must be an object
// whose keys are all in camel, and it comes back with each key renamed to its wire name, in the
// author's key order, with null members left out (null means omitted at this door) and values
// detached. A value that is not an object is returned as is, for the wire rules to name.
func respelledObject(v any, at string, camel, wire []string) (any, *Problem) {
	o, ok := plainObject(v)
	if !ok {
		return v, nil
	}
	if p := checkUnknown(o, at, camel); p != nil {
		return nil, p
	}
	out := make(Object, 0, len(o))
	for _, m := range o {
		if m.Value == nil {
			continue
		}
		for i, k := range camel {
			if m.Key == k {
				fresh, err := freshJSON(m.Value)
				if err != nil {
					return nil, problemf(join(at, k), "%s cannot be written as JSON", rootName(join(at, k)))
				}
				out = append(out, Member{Key: wire[i], Value: fresh})
			}
		}
	}
	return out, nil
}

// clarifyDecl reads an author's clarify object: {question, candidates?}, rebuilt in that order with
// candidates [] when left out, as the wire carries it.
func clarifyDecl(v any) (any, *Problem) {
	o, ok := plainObject(v)
	if !ok {
		return v, nil
	}
	if p := checkUnknown(o, "clarify", clarifyKeys); p != nil {
		return nil, p
	}
	q, _ := o.Get("question")
	c, present := o.Get("candidates")
	if !present || c == nil {
		c = []any{}
	}
	fresh, err := freshJSON(Object{{Key: "question", Value: q}, {Key: "candidates", Value: c}})
	if err != nil {
		return nil, problemf("clarify", "`clarify` cannot be written as JSON")
	}
	return fresh, nil
}

// grainProblem is the wire rule for grain: an object of known keys, each given value well typed,
// at least one stated, and is_counter stated when the aggregation looks like a counter.
func grainProblem(v any, sp keySpelling) *Problem {
	name := func(k string) string { return spell(sp, join("grain", k)) }
	o, ok := plainObject(v)
	if !ok {
		return problemf("grain", "`grain` must be an object {%s}; it is %s", strings.Join(spellAll(sp, grainWire), ", "), clipQuote(v))
	}
	if p := checkUnknown(o, "grain", grainWire); p != nil {
		return p
	}
	says := false
	for _, k := range []string{"interval", "aggregation", "collapsed"} {
		if x, present := o.Get(k); present {
			if _, ok := nonBlankString(x); !ok {
				return problemf(name(k), "`%s` must be non-empty text or left out; it is %s", name(k), clipQuote(x))
			}
			says = true
		}
	}
	ic, icPresent := o.Get("is_counter")
	_, icBool := ic.(bool)
	if icPresent {
		if !icBool {
			return problemf(name("is_counter"), "`%s` must be true or false; it is %s", name("is_counter"), clipQuote(ic))
		}
		says = true
	}
	if !says {
		return problemf("grain", "`grain` states nothing: give at least one of %s, or leave it out", backtickList(spellAll(sp, grainWire)))
	}
	if a, _ := o.Get("aggregation"); !icBool {
		if s, ok := a.(string); ok && counterLooking(s) {
			return problemf(name("is_counter"), "`%s` is %s, a counter word, and `%s` is not stated: adding counters together counts twice, and a number alone cannot say whether it is a counter. State `%s` as true or false",
				name("aggregation"), clipQuote(strings.TrimSpace(s)), name("is_counter"), name("is_counter"))
		}
	}
	return nil
}

// clarifyProblem is the wire rule for clarify: null (the tool considered ambiguity and found none)
// or {question, candidates} with a question and a list of candidates.
func clarifyProblem(v any) *Problem {
	if v == nil {
		return nil
	}
	o, ok := plainObject(v)
	if !ok {
		return problemf("clarify", "`clarify` must be an object {question, candidates} or null; it is %s", clipQuote(v))
	}
	if p := checkUnknown(o, "clarify", clarifyKeys); p != nil {
		return p
	}
	if q, _ := o.Get("question"); q == nil {
		return problemf("clarify.question", "`clarify.question` is required: the question the person should be asked")
	} else if _, ok := nonBlankString(q); !ok {
		return problemf("clarify.question", "`clarify.question` must ask something; it is %s", clipQuote(q))
	}
	if c, _ := o.Get("candidates"); c == nil {
		return problemf("clarify.candidates", "`clarify.candidates` is required: a list of the answers to choose from, empty for an open question")
	} else if _, ok := asArray(c); !ok {
		return problemf("clarify.candidates", "`clarify.candidates` must be a list (empty for an open question); it is %s", typeWord(c))
	}
	return nil
}

// renderProblem is the wire rule for render: an object of known hint keys with a default
// presentation, columns a non-empty list of names, and each other hint non-empty text.
func renderProblem(v any, sp keySpelling) *Problem {
	name := func(k string) string { return spell(sp, join("render", k)) }
	o, ok := plainObject(v)
	if !ok {
		return problemf("render", "`render` must be an object {%s}; it is %s", strings.Join(spellAll(sp, renderWire), ", "), clipQuote(v))
	}
	if p := checkUnknown(o, "render", renderWire); p != nil {
		return p
	}
	if d, _ := o.Get("default"); d == nil {
		return problemf("render.default", "`render.default` is required: the default presentation (\"table\", \"chart\", \"prose\")")
	} else if _, ok := nonBlankString(d); !ok {
		return problemf("render.default", "`render.default` must name the default presentation; it is %s", clipQuote(d))
	}
	if c, present := o.Get("columns"); present {
		arr, ok := asArray(c)
		good := ok && len(arr) > 0
		for _, x := range arr {
			if _, ok := nonBlankString(x); !ok {
				good = false
			}
		}
		if !good {
			return problemf("render.columns", "`render.columns` must be a non-empty list of column names, or left out; it is %s", clipQuote(c))
		}
	}
	for _, k := range []string{"sort", "filter_note", "chart_hint"} {
		if x, present := o.Get(k); present {
			if _, ok := nonBlankString(x); !ok {
				return problemf(name(k), "`%s` must be non-empty text or left out; it is %s", name(k), clipQuote(x))
			}
		}
	}
	return nil
}

// spellAll spells each wire key for sp.
func spellAll(sp keySpelling, keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = spell(sp, k)
	}
	return out
}
