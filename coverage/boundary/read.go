// This file holds the one reading of a tool result at the dispatch boundary, the narrower
// recognizers it is built from, and what they return.

package boundary

import (
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/coverage/wire"
	"github.com/agentfootprint/agentfootprint-go/internal/coverage/engine"
)

// Reading is everything the dispatch boundary needs from one tool result.
type Reading struct {
	// Recognized names the outermost envelope recognized: "absence", "ledger" or "semantics",
	// or "none" for plain data (the words the check command prints under "recognized").
	Recognized string
	// Absent reports that the result is, or wraps, an absence: its call's status is absent.
	Absent bool
	// Declared lists the declarations to record, in record order (a ledger before the absence it
	// wraps).
	Declared []Facts
	// Record reports whether Declared holds declarations to record: true for an absence, a ledger
	// (and an absence it wraps) or a described result with coverage or a period.
	Record bool
	// Problems lists, wire-spelled, the fault that kept an af_semantics value from being
	// recognized, each declaration left off the record, and each fault in a declaration that
	// was kept as written (a key or string that is not UTF-8, a retry_returns_the_same that is
	// not true).
	Problems []Problem
	// Semantics is the af_semantics envelope as recognized (nil for none): the described
	// values the tools.semantics_declared event carries.
	Semantics wire.Object
	// Served is what the model reads. For every recognized envelope, at every depth of a
	// ledger's result, the record-only item keys (short, kind) are removed, the verdict word and
	// its clause are added for a period the store does not fully hold, the in-progress clause is
	// added, and a described result is projected onto the keys the model reads. The tool's value
	// is never mutated and only the changed paths are rebuilt; when nothing changes, Served is
	// the value itself and Changed is false. Reading Served again serves it unchanged.
	Served  any
	Changed bool
}

// Read reads one tool result for the named tool, once: what it was recognized as, the
// declarations to record, the described values, what was left off the record, and what the
// model is served. A value with no marker at all is plain data and is returned as served without
// being read further. The reading's developer warnings go to w; a nil w warns nothing.
func Read(v any, tool string, w *Warner) Reading {
	b := engine.AtBoundary(plain(v), tool, engineOptions(w)...)
	served := b.Served
	if !b.Changed {
		served = v
	}
	return Reading{
		Recognized: string(b.Recognized),
		Absent:     b.Result.Status == engine.StatusAbsent,
		Declared:   declared(b.Result.Declared),
		Record:     b.Record,
		Problems:   problems(b.Problems),
		Semantics:  b.Semantics,
		Served:     served,
		Changed:    b.Changed,
	}
}

// The declaration kinds on the record: the values of [Facts].Kind and of
// [coverage.DeclaredCoverage].Kind, which say which door a declaration came through.
const (
	KindAbsence = "absence"
	KindLedger  = "ledger"
)

// Facts is one declaration as the record keeps it, read off an envelope. Lists are never nil.
type Facts struct {
	Kind        string
	Checked     []coverage.Item
	NotChecked  []coverage.Item
	CannotCover []coverage.Item
	// LookedFor is set on an absence whose looked_for is text.
	LookedFor string
	// TryInstead and TryInsteadTool are an absence's suggestions; invalid ones are dropped.
	TryInstead     string
	TryInsteadTool *coverage.ToolSuggestion
	// Provenance is an absence's well-formed provenance.
	Provenance *coverage.Provenance
	// Period is the well-formed declared period, camelCase.
	Period *coverage.Period
	// InProgress is a ledger's well-formed, non-empty in-progress list.
	InProgress []coverage.InProgressItem
}

// Problem is one fault found in a declaration: where it is (a dot path, wire-spelled), and what
// is wrong. A reader records it when it leaves a foreign declaration off the record.
type Problem struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// Verdict returns the least held verdict over the declared periods (the weakest one wins), and false
// when none declared a period.
func (r Reading) Verdict() (coverage.Verdict, bool) {
	var vs []coverage.Verdict
	for _, f := range r.Declared {
		if f.Period != nil {
			if v, err := coverage.VerdictOf(*f.Period); err == nil {
				vs = append(vs, v)
			}
		}
	}
	return leastHeld(vs)
}

func problems(in []engine.Problem) []Problem {
	if in == nil {
		return nil
	}
	out := make([]Problem, len(in))
	for i, p := range in {
		out[i] = Problem(p)
	}
	return out
}

func declared(in []engine.Facts) []Facts {
	if in == nil {
		return nil
	}
	out := make([]Facts, len(in))
	for i, f := range in {
		out[i] = factsOf(f)
	}
	return out
}

func factsOf(f engine.Facts) Facts {
	out := Facts{
		Kind:        string(f.Kind),
		Checked:     items(f.Checked),
		NotChecked:  items(f.NotChecked),
		CannotCover: items(f.CannotCover),
		LookedFor:   f.LookedFor,
		TryInstead:  f.TryInstead,
		Period:      periodPtr(f.Period),
	}
	if t := f.TryInsteadTool; t != nil {
		out.TryInsteadTool = &coverage.ToolSuggestion{Tool: t.Tool, Why: t.Why}
	}
	if p := f.Provenance; p != nil {
		out.Provenance = &coverage.Provenance{MeasuredAt: p.MeasuredAt, AgeSeconds: p.AgeSeconds, Source: p.Source, SourceExportDate: p.SourceExportDate}
	}
	if f.InProgress != nil {
		out.InProgress = make([]coverage.InProgressItem, len(f.InProgress))
		for i, it := range f.InProgress {
			out.InProgress[i] = coverage.InProgressItem(it)
		}
	}
	return out
}

func items(in []engine.Item) []coverage.Item {
	if in == nil {
		return nil
	}
	out := make([]coverage.Item, len(in))
	for i, it := range in {
		out[i] = coverage.Item{What: it.What, Why: it.Why, Short: it.Short, Kind: coverage.ItemKind(it.Kind)}
	}
	return out
}

func periodOf(p engine.Period) coverage.Period {
	return coverage.Period{
		Queried: coverage.Span(p.Queried),
		Held:    coverage.Held{Unknown: p.Held.Unknown, Span: coverage.Span(p.Held.Span)},
		ReadAt:  p.ReadAt,
	}
}

func periodPtr(p *engine.Period) *coverage.Period {
	if p == nil {
		return nil
	}
	c := periodOf(*p)
	return &c
}

// plain hands a minted coverage.Envelope to the engine as the wire object it is, so the reading
// does not have to look through its named type.
func plain(v any) any {
	if e, ok := v.(coverage.Envelope); ok {
		return wire.Object(e)
	}
	return v
}
