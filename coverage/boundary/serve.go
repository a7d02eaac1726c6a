// This file holds the weakest of several verdicts, the rule Reading.Verdict applies.

package boundary

import (
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/internal/coverage/engine"
)

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
