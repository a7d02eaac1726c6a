// The limits block as a layer value: the block of what the turn's tools
// declared they covered, appended once to a prose answer under
// WithLimitsBlock, with the time layer's lines and the inputs layer's
// Assumed block in it when those layers are armed.

package agent

import (
	"github.com/agentfootprint/agentfootprint-go/flow"
	limitsblock "github.com/agentfootprint/agentfootprint-go/internal/honesty/limits"
)

// WithLimitsBlock appends to a prose answer the block of what the turn's
// tools declared they covered (Checked, Not checked, Cannot cover, Period,
// In progress), where the model cannot leave it out. With nothing declared
// the answer is returned unchanged. A typed answer (WithOutputSchema) stays
// the model's JSON; it carries the same facts as answerCoverage instead.
func WithLimitsBlock() Option { return func(c *config) { c.addLayer(&limitsLayer{}) } }

// limitsLayer renders the block once, from the rows and the other layers'
// lines.
type limitsLayer struct {
	typed   bool                       // a typed answer: no block
	timed   bool                       // time layer armed: zoned lines, checks, clocks
	assumed func(s *flow.Scope) string // inputs layer's Assumed block, or nil
}

func (*limitsLayer) plain()             {}
func (*limitsLayer) name() string       { return layerLimits }
func (*limitsLayer) requires() []string { return nil }
func (*limitsLayer) after() []string    { return []string{layerInputs, layerTime, layerResults} }

func (l *limitsLayer) arm(c *config) error {
	l.typed = c.has(layerOutput)
	l.timed = c.has(layerTime)
	if in, ok := c.layer(layerInputs).(*inputsLayer); ok {
		l.assumed = in.assumedText
	}
	return nil
}

// prepareFinal attaches the coverage block, then the Assumed block, behind
// one separator.
func (l *limitsLayer) prepareFinal(s *flow.Scope, f *finalDraft) error {
	if l.typed {
		return nil
	}
	rows := kCoverage.Get(s)
	block := ""
	if l.timed {
		block = limitsblock.CoverageBlockWith(rows, timeExtras(s))
	} else {
		block = limitsblock.CoverageBlock(rows)
	}
	assumed := ""
	if l.assumed != nil {
		assumed = l.assumed(s)
	}
	f.answer = limitsblock.Attach(f.answer, block, assumed)
	return nil
}
