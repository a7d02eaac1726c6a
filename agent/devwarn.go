// Development warnings: advice logged once per process through log/slog
// when a configuration is allowed but probably a mistake.

package agent

import (
	"log/slog"
	"sync/atomic"
)

// manyIterations is the step budget above which New warns. There is no
// upper cap: a budget this large is allowed, and usually a mistake.
const manyIterations = 100

// warnedManyIterations is the warn-once ledger for warnManyIterations.
var warnedManyIterations atomic.Bool

// warnManyIterations logs, the first time in the process only, that a step
// budget of n is unusually large. It returns whether it logged.
func warnManyIterations(l *slog.Logger, n int) bool {
	if n <= manyIterations || !warnedManyIterations.CompareAndSwap(false, true) {
		return false
	}
	l.Warn("agentfootprint: a step budget above 100 lets one turn make that many model calls; the default is 10 and the wrap-up call ends a turn when the budget is spent",
		slog.Int("maxIterations", n), slog.Int("warnAbove", manyIterations))
	return true
}
