// This file holds the one call the dispatch boundary makes per tool result: what was recognized,
// what to record, what was left off the record, and what the model is served.

package engine

// Recognized names the envelope a result was recognized as.
type Recognized string

// The recognized kinds; RecognizedNone is plain data.
const (
	RecognizedAbsence   Recognized = "absence"
	RecognizedLedger    Recognized = "ledger"
	RecognizedSemantics Recognized = "semantics"
	RecognizedNone      Recognized = "none"
)

// Boundary is everything the dispatch boundary needs from one tool result.
type Boundary struct {
	// Recognized is the outermost envelope recognized.
	Recognized Recognized
	// Result is what [ReadCoverageResult] found: status, declarations to record, problems.
	Result CoverageResult
	// Record reports whether Result holds declarations to record (ReadCoverageResult's bool).
	Record bool
	// Problems adds, to Result.Problems, the fault that kept an af_semantics value from being
	// recognized.
	Problems []Problem
	// Semantics is the af_semantics envelope as recognized (nil for none): the described
	// values the tools.semantics_declared event carries.
	Semantics Object
	// Served is what the model reads; Changed reports whether it differs from the tool's value.
	Served  any
	Changed bool
}

// AtBoundary reads one tool result for the named tool, once: what it was recognized as, the
// declarations to record (as [ReadCoverageResult] finds them), the described values (as
// [ReadSemantics] finds them), what was left off the record, and what the model is served (as
// [Served] derives it). A value with no marker at all is plain data and is returned as served
// without being read further.
func AtBoundary(v any, tool string, opts ...ReadOption) Boundary {
	b := Boundary{Recognized: RecognizedNone, Served: v}
	if !mayBeEnvelope(v) {
		return b
	}
	sem, semProb := ReadSemantics(v)
	b.Result, b.Record, b.Recognized = readResult(v, tool, readOptions(opts).warn, sem, semProb)
	if b.Recognized == RecognizedNone && semProb != nil {
		b.Problems = append(b.Problems, *semProb)
	}
	b.Semantics = sem
	b.Problems = append(b.Problems, b.Result.Problems...)
	b.Served, b.Changed = Served(v)
	return b
}
