// This file holds the dev-mode switch and the warn-once ledger for declarations a reader left off
// the record.

package coverage

import (
	"log/slog"
	"sync"
	"sync/atomic"
)

// devMode is the one switch for developer warnings.
var devMode atomic.Bool

// SetDevMode turns developer warnings on or off for the process. They go through log/slog and
// never print a value a tool or a call supplied.
func SetDevMode(on bool) { devMode.Store(on) }

// DevMode reports whether developer warnings are on.
func DevMode() bool { return devMode.Load() }

// warnLedgerCap bounds the warn-once memory; past it nothing more is warned.
const warnLedgerCap = 500

// unnamedTool stands for a tool whose name the caller did not give.
const unnamedTool = "(unnamed tool)"

type warnLedger struct {
	mu   sync.Mutex
	seen map[[2]string]bool
}

var warned = &warnLedger{seen: map[[2]string]bool{}}

// first reports whether (tool, declaration) has not been warned about yet, and remembers it.
func (w *warnLedger) first(tool, declaration string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	k := [2]string{tool, declaration}
	if w.seen[k] || len(w.seen) >= warnLedgerCap {
		return false
	}
	w.seen[k] = true
	return true
}

func (w *warnLedger) reset() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.seen = map[[2]string]bool{}
}

// warnDropped says, once per (tool, declaration) per process and only in dev mode, that a
// recognized envelope's declaration could not be read and was left off the record.
func warnDropped(tool, declaration string, p Problem) {
	if !devMode.Load() {
		return
	}
	if tool == "" {
		tool = unnamedTool
	}
	if !warned.first(tool, declaration) {
		return
	}
	slog.Warn("coverage: a declaration in a tool result is malformed and was left off the record; "+
		"the result itself is kept and served to the model as the tool wrote it. "+
		"This warning fires once per tool and declaration in this process.",
		slog.String("tool", tool),
		slog.String("declaration", declaration),
		slog.String("field", p.Field))
}
