// Package coverread holds the framework's narrow readers of a coverage envelope: the recognizers
// the honesty layers and the MCP bridge apply to one value, the Period: line of the limits block,
// the weakest of several verdicts, and the check a checkpoint loader applies to a period row. A
// user reads a tool result with coverage/boundary.Read; these are the pieces the framework itself
// needs beside that one reading.
package coverread

import (
	"math"

	"github.com/agentfootprint/agentfootprint-go/internal/honesty/rowkind"

	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	"github.com/agentfootprint/agentfootprint-go/coverage/wire"
	"github.com/agentfootprint/agentfootprint-go/internal/coverage/engine"
)

// ReadAbsence recognizes an af_absent envelope: "af_absent" is the boolean true and "checked" is a
// non-empty list. No other key is checked; extra keys ride along. It returns the envelope viewed as
// an ordered object.
func ReadAbsence(v any) (wire.Object, bool) { return engine.ReadAbsence(plain(v)) }

// ReadLedger recognizes a coverage ledger: "af_coverage" is an object, a "result" key exists (null
// included), and af_coverage.checked is not "declared".
func ReadLedger(v any) (wire.Object, bool) { return engine.ReadCoverageLedger(plain(v)) }

// ReadSemantics recognizes an af_semantics envelope: the marker is true and the whole wire rule set
// passes. Anything else (a fault anywhere, or no marker) is data, and false.
func ReadSemantics(v any) (wire.Object, bool) {
	o, p := engine.ReadSemantics(plain(v))
	if p != nil || o == nil {
		return nil, false
	}
	return o, true
}

// ReadDeclaredAbsence recognizes an absence whose checked the dispatcher is to compose from the
// tool's search declaration (checked is "declared"). Every other reader sees such a value as data.
func ReadDeclaredAbsence(v any) (wire.Object, bool) { return engine.ReadDeclaredAbsence(plain(v)) }

// ReadDeclaredLedger recognizes a ledger whose checked the dispatcher is to compose.
func ReadDeclaredLedger(v any) (wire.Object, bool) { return engine.ReadDeclaredLedger(plain(v)) }

// PeriodLine is the line the limits block prints for one declaring call: the period as the tool
// declared it, instants verbatim, no verdict word. With a held span it reads
// "backup_runs queried A to B; the store holds C to D"; an unknown held and a readAt use this
// module's own static words around the tool's values.
func PeriodLine(tool string, p coverage.Period) string {
	return engine.PeriodLine(tool, engine.Period{
		Queried: engine.Span(p.Queried),
		Held:    engine.Held{Unknown: p.Held.Unknown, Span: engine.Span(p.Held.Span)},
		ReadAt:  p.ReadAt,
	})
}

// LeastHeld returns the weakest verdict in vs (not-held, then partly-held, then unknown, then
// covered), so a call that declared several periods is never credited with more than its weakest
// one. It returns false when vs holds no verdict it knows.
func LeastHeld(vs []coverage.Verdict) (coverage.Verdict, bool) {
	ev := make([]engine.Verdict, len(vs))
	for i, v := range vs {
		ev[i] = engine.Verdict(v)
	}
	v, ok := engine.LeastHeld(ev)
	return coverage.Verdict(v), ok
}

// PeriodRowIsWellFormed is the test a conversation checkpoint's loader applies to a period row
// decoded as JSON: kind "period", numeric turn and iteration, text toolCallId and toolName, a
// known verdict, and an argument that is absent or non-empty text. Later fields, when present, must be well formed.
func PeriodRowIsWellFormed(row map[string]any) bool {
	if row["kind"] != rowkind.Period {
		return false
	}
	for _, k := range []string{"turn", "iteration"} {
		if _, ok := engine.NumberOf(row[k]); !ok {
			return false
		}
	}
	for _, k := range []string{"toolCallId", "toolName"} {
		if _, ok := row[k].(string); !ok {
			return false
		}
	}
	v, _ := row["verdict"].(string)
	known := false
	for _, w := range periodRowVerdicts() {
		if boundary.RowVerdict(v) == w {
			known = true
		}
	}
	if !known {
		return false
	}
	if a, has := row["argument"]; has {
		if s, ok := a.(string); !ok || s == "" {
			return false
		}
	}
	if s, has := row["shifted"]; has {
		o, ok := s.(map[string]any)
		if !ok {
			return false
		}
		f, ok := engine.NumberOf(o["byMs"])
		if !ok || f != math.Trunc(f) {
			return false
		}
	}
	for _, k := range []string{"beyondRetention", "partlyBeyondRetention"} {
		if x, has := row[k]; has && x != true {
			return false
		}
	}
	return true
}

// periodRowVerdicts returns every verdict a period row may carry, in the fold's order.
func periodRowVerdicts() []boundary.RowVerdict {
	return []boundary.RowVerdict{boundary.RowVerdict(coverage.VerdictCovered), boundary.RowVerdict(coverage.VerdictPartlyHeld), boundary.RowVerdict(coverage.VerdictNotHeld), boundary.RowVerdict(coverage.VerdictUnknown), boundary.VerdictUndeclared}
}

// plain hands a minted coverage.Envelope to the engine as the wire object it is.
func plain(v any) any {
	if e, ok := v.(coverage.Envelope); ok {
		return wire.Object(e)
	}
	return v
}
