// This file holds the developer warnings of the reading: a Warner sends them to the caller's
// logger, once per tool and declaration, for declarations a reader left off the record.

package boundary

import (
	"log/slog"

	"github.com/agentfootprint/agentfootprint-go/internal/coverage/engine"
)

// Warner sends the reading's developer warnings to one logger: one warning per tool and
// declaration (a malformed period, provenance or item left off the record, a value that is not
// UTF-8, an odd tool name in try_instead_tool, a malformed af_semantics envelope). It remembers
// at most 500 (tool, declaration) pairs; past that it warns no more. A warning names the tool,
// the declaration and the field, never a value the tool returned. A nil *Warner warns nothing.
// One Warner is safe for concurrent use; give each agent (or each process) its own.
type Warner struct{ w *engine.Warner }

// NewWarner returns a Warner that logs to log at level Warn. A nil log returns nil, which warns
// nothing.
func NewWarner(log *slog.Logger) *Warner {
	if log == nil {
		return nil
	}
	return &Warner{w: engine.NewWarner(log)}
}

// engineOptions passes w's logger to the engine's reading; a nil w warns nothing.
func engineOptions(w *Warner) []engine.ReadOption {
	if w == nil {
		return nil
	}
	return []engine.ReadOption{engine.WithWarner(w.w)}
}
