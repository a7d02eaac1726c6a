// This file holds the one call the dispatch boundary makes per tool result: what was recognized,
// what to record, what was left off the record, and what the model is served.

package coverage

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
	// Served is what the model reads; Changed reports whether it differs from the tool's value.
	Served  any
	Changed bool
}

// AtBoundary reads one tool result for the named tool and derives what the model is served. It is
// [ReadCoverageResult] and [Served] in one call, plus the name of what was recognized.
func AtBoundary(v any, tool string, opts ...ReadOption) Boundary {
	b := Boundary{Recognized: RecognizedNone}
	switch {
	case isRecognized(ReadAbsence(v)):
		b.Recognized = RecognizedAbsence
	case isRecognized(ReadCoverageLedger(v)):
		b.Recognized = RecognizedLedger
	default:
		if o, p := ReadSemantics(v); o != nil {
			b.Recognized = RecognizedSemantics
		} else if p != nil {
			b.Problems = append(b.Problems, *p)
		}
	}
	b.Result, b.Record = ReadCoverageResult(v, tool, opts...)
	b.Problems = append(b.Problems, b.Result.Problems...)
	b.Served, b.Changed = Served(v)
	return b
}

func isRecognized(_ Object, ok bool) bool { return ok }
