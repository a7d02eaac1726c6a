// This file holds the served form (what the model reads of a tool result) and the weakest of
// several verdicts.

package boundary

import (
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/internal/coverage/engine"
)

// Served returns what the model reads for a tool result. For every recognized envelope, at every
// depth of a ledger's result, it removes the record-only item keys (short, kind), adds the verdict
// word and its clause for a period the store does not fully hold, adds the in-progress clause,
// and projects a described result onto the keys the model reads. When nothing changes it returns
// v itself and false; it never mutates v, and rebuilds only the changed paths. Served(Served(x))
// equals Served(x).
func Served(v any) (out any, changed bool) {
	out, changed = engine.Served(plain(v))
	if !changed {
		return v, false
	}
	return out, true
}

// leastHeld returns the weakest verdict in vs (not-held, then partly-held, then unknown, then
// covered), so a call that declared several periods is never credited with more than its weakest
// one. It returns false when vs holds no verdict it knows.
func leastHeld(vs []coverage.Verdict) (coverage.Verdict, bool) {
	ev := make([]engine.Verdict, len(vs))
	for i, v := range vs {
		ev[i] = engine.Verdict(v)
	}
	v, ok := engine.LeastHeld(ev)
	return coverage.Verdict(v), ok
}
