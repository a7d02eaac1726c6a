// Tool definition sites in the record's catalog: a tool's entry carries
// where tool.New or tool.NewRaw was called, so explain can name the line
// that defined a tool a suspect came from.

package agent

import (
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// toolSite is t's definition site as a catalog entry holds it, or nil when
// the runtime could not report one.
func toolSite(t *tool.Tool) *tool.Site {
	s := t.Declaration().DefinedAt
	if s == (tool.Site{}) {
		return nil
	}
	return &s
}
