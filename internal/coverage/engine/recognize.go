// This file holds the strict recognizers and the one reading channel the dispatch boundary calls:
// read as written, never repaired; a malformed foreign declaration is left off the record.

package engine

import cw "github.com/agentfootprint/agentfootprint-go/coverage/wire"

// envelopeObject views v as an object: a plain object, or one of this package's envelopes in wire
// form. JSON text (a string, []byte or json.RawMessage) is data and never parsed.
func envelopeObject(v any) (Object, bool) {
	switch t := v.(type) {
	case *Absence:
		if t == nil {
			return nil, false
		}
		return t.Wire(), true
	case Absence:
		return t.Wire(), true
	case *Covered:
		if t == nil {
			return nil, false
		}
		return t.Wire(), true
	case Covered:
		return t.Wire(), true
	case *Semantics:
		if t == nil {
			return nil, false
		}
		return t.Wire(), true
	case Semantics:
		return t.Wire(), true
	}
	if o, ok := plainObject(v); ok {
		return o, true
	}
	return namedObject(v)
}

// markerValue looks up a marker key without building a view of v, so a plain result that declares
// nothing costs the boundary almost nothing.
func markerValue(v any, key string) (any, bool) {
	switch t := v.(type) {
	case map[string]any:
		x, ok := t[key]
		return x, ok
	case Object:
		return t.Get(key)
	case *Absence, Absence:
		if key == cw.AbsenceMarker {
			return true, true
		}
	case *Covered, Covered:
		if key == cw.CoverageMarker {
			return Object{}, true
		}
	case *Semantics, Semantics:
		if key == cw.SemanticsMarker {
			return true, true
		}
	default:
		if o, ok := namedObject(v); ok {
			return o.Get(key)
		}
	}
	return nil, false
}

// ReadAbsence recognizes an af_absent envelope: "af_absent" is the boolean true and "checked" is a
// non-empty list. No other key is checked; extra keys ride along. It returns the envelope viewed as
// an ordered object.
func ReadAbsence(v any) (Object, bool) {
	o, c, ok := absenceParts(v)
	if !ok {
		return nil, false
	}
	if arr, ok := asArray(c); !ok || len(arr) == 0 {
		return nil, false
	}
	return o, true
}

// absenceParts views v as an object whose af_absent is true, and returns its checked value.
func absenceParts(v any) (Object, any, bool) {
	if m, _ := markerValue(v, cw.AbsenceMarker); m != true {
		return nil, nil, false
	}
	o, ok := envelopeObject(v)
	if !ok {
		return nil, nil, false
	}
	if m, _ := o.Get(cw.AbsenceMarker); m != true {
		return nil, nil, false
	}
	c, _ := o.Get("checked")
	return o, c, true
}

// ReadCoverageLedger recognizes a coverage ledger: "af_coverage" is an object, a "result" key
// exists (null included), and af_coverage.checked is not "declared".
func ReadCoverageLedger(v any) (Object, bool) {
	o, inner, ok := ledgerParts(v)
	if !ok {
		return nil, false
	}
	if c, _ := inner.Get("checked"); c == any(DeclaredChecked) {
		return nil, false
	}
	return o, true
}

func ledgerParts(v any) (Object, Object, bool) {
	if _, has := markerValue(v, cw.CoverageMarker); !has {
		return nil, nil, false
	}
	o, ok := envelopeObject(v)
	if !ok {
		return nil, nil, false
	}
	ac, _ := o.Get(cw.CoverageMarker)
	inner, ok := plainObject(ac)
	if !ok {
		return nil, nil, false
	}
	if _, has := o.Get("result"); !has {
		return nil, nil, false
	}
	return o, inner, true
}

// ReadSemantics recognizes an af_semantics envelope: the marker is true and the whole wire rule set
// passes. Otherwise it returns the first problem (nil when the marker is not there at all): the
// value stays data, and a caller in dev mode warns.
func ReadSemantics(v any) (Object, *Problem) {
	if m, _ := markerValue(v, cw.SemanticsMarker); m != true {
		return nil, nil
	}
	o, ok := envelopeObject(v)
	if !ok {
		return nil, nil
	}
	if m, _ := o.Get(cw.SemanticsMarker); m != true {
		return nil, nil
	}
	if p := semanticsWireProblem(o); p != nil {
		return nil, p
	}
	return o, nil
}

// ReadDeclaredAbsence recognizes an absence whose checked the dispatch funnel is to compose
// (checked is "declared"). Every other reader sees such a value as data.
func ReadDeclaredAbsence(v any) (Object, bool) {
	o, c, ok := absenceParts(v)
	if !ok || c != any(DeclaredChecked) {
		return nil, false
	}
	return o, true
}

// ReadDeclaredLedger recognizes a ledger whose checked the dispatch funnel is to compose.
func ReadDeclaredLedger(v any) (Object, bool) {
	o, inner, ok := ledgerParts(v)
	if !ok {
		return nil, false
	}
	if c, _ := inner.Get("checked"); c != any(DeclaredChecked) {
		return nil, false
	}
	return o, true
}

// Status is the status a result's envelope gives its call.
type Status string

// StatusAbsent is the status of a call whose result is (or wraps) an absence.
const StatusAbsent Status = "absent"

// FactsKind says which door a declaration came through.
type FactsKind string

// The declaration kinds on the record.
const (
	KindAbsence FactsKind = "absence"
	KindLedger  FactsKind = "ledger"
)

// Facts is one declaration as the record keeps it, read off an envelope. Lists are never nil.
type Facts struct {
	Kind        FactsKind
	Checked     []Item
	NotChecked  []Item
	CannotCover []Item
	// LookedFor is set on an absence whose looked_for is text.
	LookedFor string
	// TryInstead and TryInsteadTool are an absence's suggestions; invalid ones are dropped.
	TryInstead     string
	TryInsteadTool *ToolSuggestion
	// Provenance is an absence's well-formed provenance.
	Provenance *Provenance
	// Period is the well-formed declared period, camelCase.
	Period *Period
	// InProgress is a ledger's well-formed, non-empty in-progress list.
	InProgress []InProgressItem
}

// CoverageResult is what the one reading channel found in a tool result.
type CoverageResult struct {
	// Status is StatusAbsent when the result is, or wraps, an absence.
	Status Status
	// Declared lists the declarations to record, in record order (a ledger before the absence it
	// wraps).
	Declared []Facts
	// Problems lists each declaration left off the record, and each fault in a declaration that was
	// kept as written (a key or string that is not UTF-8, a retry_returns_the_same that is not
	// true), wire-spelled.
	Problems []Problem
}

// Verdict returns the least held verdict over the declared periods, and false when none declared
// a period.
func (r CoverageResult) Verdict() (Verdict, bool) {
	var vs []Verdict
	for _, f := range r.Declared {
		if f.Period != nil {
			vs = append(vs, verdictOfChecked(*f.Period))
		}
	}
	return LeastHeld(vs)
}

// ReadCoverageResult is the one reading channel for a tool result. It recognizes an absence, a
// ledger (and an absence it wraps) or a described result with coverage or a period, and returns
// what to record; false for anything else. A malformed period, provenance, item short or kind, or
// in-progress list is left off the record and named in Problems, with one warning per tool and
// declaration to the [Warner] given by [WithWarner], if any; the envelope stays recognized and is
// served as written.
func ReadCoverageResult(v any, tool string, opts ...ReadOption) (CoverageResult, bool) {
	sem, semProb := ReadSemantics(v)
	r, ok, _ := readResult(v, tool, readOptions(opts).warn, sem, semProb)
	return r, ok
}

// readResult is ReadCoverageResult on a value whose af_semantics reading
// (sem, or the fault semProb that kept it from being recognized) is done
// already, so a result is recognized once; it also names what it
// recognized.
func readResult(v any, tool string, w *Warner, sem Object, semProb *Problem) (CoverageResult, bool, Recognized) {
	var r CoverageResult
	if o, ok := ReadAbsence(v); ok {
		r.Status = StatusAbsent
		r.Declared = []Facts{readAbsenceFacts(o, tool, w, &r.Problems)}
		return r, true, RecognizedAbsence
	}
	if o, ok := ReadCoverageLedger(v); ok {
		ac, _ := o.Get(cw.CoverageMarker)
		inner, _ := plainObject(ac)
		r.Declared = []Facts{readLedgerFacts(inner, tool, w, &r.Problems)}
		res, _ := o.Get("result")
		if ao, ok := ReadAbsence(res); ok {
			r.Status = StatusAbsent
			r.Declared = append(r.Declared, readAbsenceFacts(ao, tool, w, &r.Problems))
		}
		return r, true, RecognizedLedger
	}
	if o := sem; o != nil {
		cov, hasCov := o.Get("coverage")
		per, hasPer := o.Get(PeriodKey)
		if !hasCov && !hasPer {
			return CoverageResult{}, false, RecognizedSemantics
		}
		f := Facts{Kind: KindLedger, Checked: []Item{}, NotChecked: []Item{}, CannotCover: []Item{}}
		if hasCov {
			g, _ := groundRule(cov, "coverage", onWire)
			f.Checked, f.NotChecked, f.CannotCover = g.Checked, g.NotChecked, g.CannotCover
		}
		if hasPer {
			f.Period = readPeriodFor(per, tool, w, &r.Problems)
		}
		r.Declared = []Facts{f}
		return r, true, RecognizedSemantics
	} else if semProb != nil {
		w.dropped(tool, cw.SemanticsMarker, *semProb)
	}
	return CoverageResult{}, false, RecognizedNone
}

func readPeriodFor(wire any, tool string, w *Warner, probs *[]Problem) *Period {
	rd := readPeriod(UnservedPeriod(wire))
	if rd.Problem != nil {
		*probs = append(*probs, *rd.Problem)
		w.dropped(tool, PeriodKey, *rd.Problem)
	}
	return rd.Period
}

func readLists(o Object, f *Facts, tool string, w *Warner, probs *[]Problem) {
	var dropped []Problem
	for _, s := range []struct {
		sec section
		dst *[]Item
	}{{sectionChecked, &f.Checked}, {sectionNotChecked, &f.NotChecked}, {sectionCannotCover, &f.CannotCover}} {
		v, _ := o.Get(s.sec.name(onWire))
		items, ps := readWireList(v, s.sec)
		*s.dst = items
		dropped = append(dropped, ps...)
	}
	if len(dropped) > 0 {
		*probs = append(*probs, dropped...)
		w.dropped(tool, "item", dropped[0])
	}
}

// readFaults names, without changing anything, the faults of a recognized declaration that the
// record keeps as written: the first key or string that is not UTF-8.
func readFaults(o Object, at, tool string, w *Warner, probs *[]Problem) {
	if path, bad := utf8Fault(o, at, 0); bad {
		p := utf8Problem(path)
		p.Message += "; the declaration is recorded and served as the tool wrote it"
		*probs = append(*probs, *p)
		w.dropped(tool, "utf-8", *p)
	}
}

func readAbsenceFacts(o Object, tool string, w *Warner, probs *[]Problem) Facts {
	f := Facts{Kind: KindAbsence}
	readFaults(o, "", tool, w, probs)
	if r, present := o.Get("retry_returns_the_same"); present && r != true {
		p := problemf("retry_returns_the_same", "`retry_returns_the_same` is %s; an absence states it as true (the same call returns the same nothing), so this envelope contradicts itself. It is recorded and served as the tool wrote it", clipQuote(r))
		*probs = append(*probs, *p)
		w.dropped(tool, "retry_returns_the_same", *p)
	}
	readLists(o, &f, tool, w, probs)
	if lf, ok := o.Get("looked_for"); ok {
		f.LookedFor, _ = lf.(string)
	}
	if ti, ok := o.Get("try_instead"); ok {
		f.TryInstead, _ = tryInsteadRule(ti, "try_instead", false)
	}
	if tt, ok := o.Get("try_instead_tool"); ok && tt != nil {
		f.TryInsteadTool, _ = toolSuggestionRule(tt, "try_instead_tool")
		if f.TryInsteadTool != nil && oddToolName(f.TryInsteadTool.Tool) {
			w.oddToolName(tool)
		}
	}
	if pv, ok := o.Get("provenance"); ok && pv != nil {
		pr, p := provenanceRule(pv, "provenance", onWire)
		if p != nil {
			*probs = append(*probs, *p)
			w.dropped(tool, "provenance", *p)
		}
		f.Provenance = pr
	}
	if per, ok := o.Get(PeriodKey); ok {
		f.Period = readPeriodFor(per, tool, w, probs)
	}
	return f
}

func readLedgerFacts(inner Object, tool string, w *Warner, probs *[]Problem) Facts {
	f := Facts{Kind: KindLedger}
	readFaults(inner, cw.CoverageMarker, tool, w, probs)
	readLists(inner, &f, tool, w, probs)
	if ip, ok := inner.Get(InProgressKey); ok && ip != nil {
		items, p := inProgressList(ip, InProgressKey, false)
		if p != nil {
			*probs = append(*probs, *p)
			w.dropped(tool, InProgressKey, *p)
		} else if len(items) > 0 {
			f.InProgress = items
		}
	}
	if per, ok := inner.Get(PeriodKey); ok {
		f.Period = readPeriodFor(per, tool, w, probs)
	}
	return f
}

// malformedSemanticsCode is the finding code for an af_semantics envelope the wire rule set
// refuses.
const malformedSemanticsCode = "malformed-semantics"

// malformedFinding is one thing an explain reader lists about a tool result.
type malformedFinding struct {
	Code    string `json:"code"`
	Field   string `json:"field"`
	Message string `json:"message"`
}

// malformedSemantics reports why a value carrying the af_semantics marker was not recognized, for
// explain readers; false when v is not such a value or is well formed.
func malformedSemantics(v any) (malformedFinding, bool) {
	if _, p := ReadSemantics(v); p != nil {
		return malformedFinding{Code: malformedSemanticsCode, Field: p.Field, Message: p.Message}, true
	}
	return malformedFinding{}, false
}

// sameItem reports whether two items state the same ground, for merging lists across calls: equal
// What and equal Why (an empty Why stands for none).
func sameItem(a, b Item) bool { return a.What == b.What && a.Why == b.Why }
