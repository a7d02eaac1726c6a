// This file holds the coverage block as the time layer prints it: Period lines rendered in the
// person's zone, followed by the lines of the period checks, and a Clocks section.

package limits

import (
	"strings"

	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/honesty/limits"
	"github.com/agentfootprint/agentfootprint-go/internal/coverread"
)

// Extras are the time layer's additions to the coverage block.
type Extras struct {
	// PeriodLine renders one declared period; nil means coverread.PeriodLine.
	PeriodLine func(toolName string, p coverage.Period) string
	// PeriodChecks are the person's period check lines, printed after the Period lines.
	PeriodChecks []string
	// Clocks are the person's clock lines (and the unknown-zone line), printed in a Clocks
	// section right after Period.
	Clocks []string
}

// CoverageBlockWith renders the coverage block with the time layer's extras: the same sections
// in the same order as CoverageBlock, the Period section's lines rendered by x.PeriodLine and
// followed by x.PeriodChecks, then a Clocks section. The block prints when only extras have
// lines; it is "" when nothing has any.
func CoverageBlockWith(rows []coverage.DeclaredCoverage, x Extras) string {
	m := merge(rows)
	render := x.PeriodLine
	if render == nil {
		render = coverread.PeriodLine
	}
	var sections []string
	add := func(label string, lines []string) {
		if s := section(label, lines); s != "" {
			sections = append(sections, s)
		}
	}
	add(labelChecked, itemLines(m.checked))
	add(labelNotChecked, itemLines(m.notChecked))
	add(labelCannotCover, itemLines(m.cannotCover))
	var periods []string
	for _, p := range m.periods {
		periods = append(periods, oneLine(render(p.ToolName, periodOf(p))))
	}
	for _, l := range x.PeriodChecks {
		periods = append(periods, oneLine(l))
	}
	add(labelPeriod, periods)
	clocks := make([]string, len(x.Clocks))
	for i, l := range x.Clocks {
		clocks[i] = oneLine(l)
	}
	add(labelClocks, clocks)
	var progress []string
	for _, e := range m.inProgress {
		for _, it := range e.Items {
			progress = append(progress, inProgressLine(e.ToolName, it))
		}
	}
	add(labelInProgress, progress)
	if len(sections) == 0 {
		return ""
	}
	return limits.Heading + "\n\n" + strings.Join(sections, "\n\n")
}
