// This file renders the coverage block and attaches blocks to an answer.

package limits

import (
	"strconv"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/honesty/limits"
	"github.com/agentfootprint/agentfootprint-go/internal/coverread"
)

// maxLines is the most lines a section prints before its overflow line.
const maxLines = 12

// Attach appends blocks to an answer. Empty blocks are ignored; with none left the answer comes
// back unchanged, byte for byte. Otherwise the answer's trailing white space is trimmed and the
// blocks follow the separator, or stand alone when the answer is empty.
func Attach(answer string, blocks ...string) string {
	kept := make([]string, 0, len(blocks))
	for _, b := range blocks {
		if b != "" {
			kept = append(kept, b)
		}
	}
	if len(kept) == 0 {
		return answer
	}
	body := strings.TrimRight(answer, " \t\r\n\v\f")
	joined := strings.Join(kept, "\n\n")
	if body == "" {
		return joined
	}
	return body + limits.Separator + joined
}

// CoverageBlock renders the coverage block for a run's coverageDeclared rows, or "" when no
// section has a line.
func CoverageBlock(rows []coverage.DeclaredCoverage) string {
	if len(rows) == 0 {
		return "" // no row, no line in any section
	}
	m := merge(rows)
	var sections []string
	add := func(label string, lines []string) {
		if s := section(label, lines); s != "" {
			sections = append(sections, s)
		}
	}
	add(labelChecked, itemLines(m.checked))
	add(labelNotChecked, itemLines(m.notChecked))
	add(labelCannotCover, itemLines(m.cannotCover))
	periods := make([]string, len(m.periods))
	for i, p := range m.periods {
		periods[i] = oneLine(coverread.PeriodLine(p.ToolName, periodOf(p)))
	}
	add(labelPeriod, periods)
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

// section renders "<label>:" and one bullet per line, capped at maxLines plus an overflow bullet.
func section(label string, lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(label)
	b.WriteString(":")
	for i, l := range lines {
		if i == maxLines {
			b.WriteString("\n- … ")
			b.WriteString(strconv.Itoa(len(lines) - maxLines))
			b.WriteString(" more not shown here; the run record lists them all")
			break
		}
		b.WriteString("\n- ")
		b.WriteString(l)
	}
	return b.String()
}

func itemLines(items []coverage.Item) []string {
	out := make([]string, len(items))
	for i, it := range items {
		if it.Why == "" {
			out[i] = oneLine(it.What)
		} else {
			out[i] = oneLine(it.What + " — " + it.Why)
		}
	}
	return out
}

func inProgressLine(tool string, it coverage.InProgressItem) string {
	var b strings.Builder
	b.WriteString(tool)
	b.WriteString(": ")
	b.WriteString(it.What)
	if it.Count != 0 {
		b.WriteString(" (")
		b.WriteString(strconv.FormatInt(it.Count, 10))
		b.WriteString(")")
	}
	if it.Why != "" {
		b.WriteString(" — ")
		b.WriteString(it.Why)
	}
	return oneLine(b.String())
}

// oneLine keeps a tool's text on its bullet: a line break inside it becomes a space, so no
// declaration can start a line, or a section, of its own.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n\u2028\u2029") {
		return s
	}
	return strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ", "\u2028", " ", "\u2029", " ").Replace(s)
}
