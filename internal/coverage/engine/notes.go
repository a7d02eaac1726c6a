// This file holds the static sentences the model reads: the three envelope notes, the held-only
// absence note, the clause per served verdict and the in-progress clause. They are never built
// from runtime values; canonical-notes.json publishes them for minters in other languages.

package engine

// Words of the Period: line, in this project's own phrasing.
const (
	periodLineHeldUnknown = "the store did not state what time it holds"
	periodLineReadAt      = "; read at "
)

// periodVerdictClause returns the clause served for a verdict, and false for covered (which is
// served as nothing) or an unknown word.
func periodVerdictClause(v Verdict) (string, bool) {
	switch v {
	case VerdictNotHeld:
		return ClauseNotHeld, true
	case VerdictPartlyHeld:
		return ClausePartlyHeld, true
	case VerdictUnknown:
		return ClauseUnknown, true
	default:
		return "", false
	}
}

// periodVerdictClauses returns a fresh map from each served verdict to its clause.
func periodVerdictClauses() map[Verdict]string {
	return map[Verdict]string{
		VerdictNotHeld:    ClauseNotHeld,
		VerdictPartlyHeld: ClausePartlyHeld,
		VerdictUnknown:    ClauseUnknown,
	}
}
