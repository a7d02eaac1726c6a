// Tool definition sites in the BORN record: a tool's catalog entry carries
// where tool.New or tool.NewRaw was called (explain.md §3.1–3.2).

package agent

import (
	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// toolSite is t's definition site as a catalog entry holds it, or nil when
// the runtime could not report one.
func toolSite(t *tool.Tool) *inject.Site {
	s := t.DefinedAt()
	if s == (tool.Site{}) {
		return nil
	}
	return &inject.Site{File: s.File, Line: s.Line, Function: s.Function}
}
