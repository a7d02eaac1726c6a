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

// ReadOption configures one reading ([Read], [ReadResult]).
type ReadOption func(*readConfig)

type readConfig struct{ warn *Warner }

// WithWarner sends the reading's developer warnings to w. Without it a reading warns nothing.
func WithWarner(w *Warner) ReadOption { return func(c *readConfig) { c.warn = w } }

func engineOptions(opts []ReadOption) []engine.ReadOption {
	if len(opts) == 0 {
		return nil
	}
	var c readConfig
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	if c.warn == nil {
		return nil
	}
	return []engine.ReadOption{engine.WithWarner(c.warn.w)}
}
