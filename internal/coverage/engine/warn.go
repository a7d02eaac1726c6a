// This file holds the developer warnings of the reading channel: a Warner sends them to the
// caller's logger, once per tool and declaration, for declarations a reader left off the record.

package engine

import (
	"log/slog"
	"sync"
)

// Warner sends the reading channel's developer warnings to one logger: one warning per tool and
// declaration (a malformed period, provenance or item left off the record, a value that is not
// UTF-8, an odd tool name in try_instead_tool, a malformed af_semantics envelope). It remembers
// at most 500 (tool, declaration) pairs; past that it warns no more. A warning names the tool,
// the declaration and the field, never a value the tool returned. A nil *Warner warns nothing.
// One Warner is safe for concurrent use; give each agent (or each process) its own.
type Warner struct {
	log  *slog.Logger
	mu   sync.Mutex
	seen map[[2]string]bool
}

// NewWarner returns a Warner that logs to log at level Warn. A nil log returns nil, which warns
// nothing.
func NewWarner(log *slog.Logger) *Warner {
	if log == nil {
		return nil
	}
	return &Warner{log: log, seen: map[[2]string]bool{}}
}

// ReadOption configures one call of the reading channel ([ReadCoverageResult], [AtBoundary]).
type ReadOption func(*readConfig)

type readConfig struct{ warn *Warner }

// WithWarner sends the call's developer warnings to w. Without it a call warns nothing.
func WithWarner(w *Warner) ReadOption { return func(c *readConfig) { c.warn = w } }

func readOptions(opts []ReadOption) readConfig {
	if len(opts) == 0 {
		return readConfig{}
	}
	var c readConfig
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c
}

// warnLedgerCap bounds the warn-once memory; past it nothing more is warned.
const warnLedgerCap = 500

// unnamedTool stands for a tool whose name the caller did not give.
const unnamedTool = "(unnamed tool)"

// first reports whether (tool, declaration) has not been warned about yet, and remembers it.
func (w *Warner) first(tool, declaration string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	k := [2]string{tool, declaration}
	if w.seen[k] || len(w.seen) >= warnLedgerCap {
		return false
	}
	w.seen[k] = true
	return true
}

// dropped says, once per (tool, declaration), that a recognized envelope's declaration could not
// be read as declared.
func (w *Warner) dropped(tool, declaration string, p Problem) {
	if w == nil {
		return
	}
	if tool == "" {
		tool = unnamedTool
	}
	if !w.first(tool, declaration) {
		return
	}
	w.log.Warn("coverage: a declaration in a tool result is malformed and was left off the record; "+
		"the result itself is kept and served to the model as the tool wrote it. "+
		"This warning fires once per tool and declaration.",
		slog.String("tool", tool),
		slog.String("declaration", declaration),
		slog.String("field", p.Field))
}

// oddToolName says, once per tool, that an absence's try_instead_tool names a tool with
// characters most providers refuse in a tool name.
func (w *Warner) oddToolName(tool string) {
	if w == nil {
		return
	}
	if tool == "" {
		tool = unnamedTool
	}
	if !w.first(tool, "try_instead_tool") {
		return
	}
	w.log.Warn("coverage: an absence's try_instead_tool names a tool with characters most providers "+
		"refuse in a tool name; it is recorded as declared and never looked up. "+
		"This warning fires once per tool.",
		slog.String("tool", tool))
}
