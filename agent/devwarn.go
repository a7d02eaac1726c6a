// Developer warnings: advice for the person building an agent, sent to the
// logger WithLogger names (none without it), each at most once per agent.
// They name tools and fields, never a value a tool returned.

package agent

import (
	"errors"
	"log/slog"
	"sync"

	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
)

// manyIterations is the step budget above which New warns. There is no
// upper cap: a budget this large is allowed, and usually a mistake.
const manyIterations = 100

// WithLogger sends the agent's developer warnings to l: a step budget above
// 100, a result whose declared period no layer judges, a declaration a tool's
// own coverage constructor refused while it ran, and what the reading of a
// result left off the record (a malformed period, a value that is not
// UTF-8, …). Each warning is logged at most once per agent. Without it the
// agent warns nothing.
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }

// devWarnings is one agent's warn-once ledger and its logger.
type devWarnings struct {
	log      *slog.Logger
	coverage *boundary.Warner // the reading channel's own warnings
	seen     sync.Map         // warning key → struct{}
}

func newDevWarnings(l *slog.Logger) *devWarnings {
	return &devWarnings{log: l, coverage: boundary.NewWarner(l)}
}

// once logs msg with attrs the first time key is seen; it reports whether
// it logged.
func (w *devWarnings) once(key, msg string, attrs ...any) bool {
	if w == nil || w.log == nil {
		return false
	}
	if _, seen := w.seen.LoadOrStore(key, struct{}{}); seen {
		return false
	}
	w.log.Warn(msg, attrs...)
	return true
}

// manyIterations warns that a step budget of n is unusually large.
func (w *devWarnings) manyIterations(n int) bool {
	if n <= manyIterations {
		return false
	}
	return w.once("many-iterations", "agentfootprint: a step budget above 100 lets one turn make that many model calls; the default is 10 and the wrap-up call ends a turn when the budget is spent",
		slog.Int("maxIterations", n), slog.Int("warnAbove", manyIterations))
}

// unjudged warns, once per tool, that a result declared a period no layer
// will judge because the results layer is off.
func (w *devWarnings) unjudged(judged bool, toolName string, cr boundary.Reading) bool {
	if judged {
		return false
	}
	if _, declared := cr.Verdict(); !declared {
		return false
	}
	return w.once("unjudged/"+toolName, "agentfootprint: a tool result declared the period its read covered; the period is "+
		"recorded and served to the model, but no verdict is filed because the results layer is off "+
		"(agent.WithResultsLayer() turns it on)", "tool", toolName)
}

// refusedDeclaration warns, once per tool, that the tool's own declaration
// (a coverage constructor's call inside it) was refused while it ran: the
// call returned no data, the model read the refusal, and the standing names
// the call as call-failed.
func (w *devWarnings) refusedDeclaration(toolName string, err error) bool {
	var ref *coverage.Refusal
	if !errors.As(err, &ref) {
		return false
	}
	return w.once("refused/"+toolName, "agentfootprint: a tool's own coverage declaration was refused while it ran; the call returned no data, the model was told, and the standing names the call as call-failed",
		"tool", toolName, "field", ref.Field, "refusal", ref.Error())
}
