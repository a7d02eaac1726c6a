// This file holds the period check line (one per checked call) and the shifted conclusion the
// model is handed instead of two ranges to compare.

package clock

import (
	"fmt"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/clock"
	"github.com/agentfootprint/agentfootprint-go/internal/textlen"
)

// Against names what a call's read was compared with.
type Against string

// The two references a read is compared with.
const (
	AgainstAsked  Against = "asked"  // the call's own asked range
	AgainstPerson Against = "person" // the window the person set, when the model chose another
)

// CheckedPeriod is the plain data one check line needs: the tool, what the read was compared
// with and how it differed (ranges half-open, pieces in time order), and the other checks.
// Missing and Extra are the differences after the library dropped pieces of 1 ms or less; a
// difference exists when either is non-empty.
type CheckedPeriod struct {
	Tool            string
	Against         Against
	Compared        clock.Range
	Reads           []clock.Range
	Missing         []clock.Range
	Extra           []clock.Range
	Shifted         bool // the look-back ran later than the turn's now, as sent
	BeyondRetention bool // the source keeps no data as old as the asked time
}

// CheckLine renders the line for one checked call, or reports false when the call carries no
// check. Ranges are shown as windows (Window: from the first second to the moment the window
// stops) in the presentation's zone. The person reads the
// compared window beside what was read; the model reads the same, except that a shifted
// difference is handed to it as a conclusion (ShiftedConclusion) rather than two ranges. A
// range that cannot be rendered is refused.
func CheckLine(c CheckedPeriod, p Presentation, a Audience) (string, bool, error) {
	var parts []string
	differs := len(c.Missing) > 0 || len(c.Extra) > 0
	switch {
	case differs && c.Shifted && a == ForModel:
		s, err := ShiftedConclusion(c, p)
		if err != nil {
			return "", false, err
		}
		parts = append(parts, s)
	case differs:
		compared, err := p.Window(c.Compared)
		if err != nil {
			return "", false, fmt.Errorf("clock: check line for %s: compared: %w", textlen.ClipInput(c.Tool), err)
		}
		reads, err := p.joined(c.Reads, "; ")
		if err != nil {
			return "", false, fmt.Errorf("clock: check line for %s: read: %w", textlen.ClipInput(c.Tool), err)
		}
		label := checkLabel(c.Against, a)
		parts = append(parts, c.Tool+" read "+checkWhat(c, label)+" — "+label+": "+compared+"; read: "+reads)
	case c.Shifted:
		parts = append(parts, c.Tool+"'s look-back ran later than this turn's time")
	}
	if c.BeyondRetention {
		parts = append(parts, c.Tool+": its source, as the tool declares, keeps no data as old as the asked time")
	}
	if len(parts) == 0 {
		return "", false, nil
	}
	return strings.Join(parts, ". "), true, nil
}

// checkLabel names the compared window for an audience.
func checkLabel(against Against, a Audience) string {
	switch {
	case against != AgainstPerson:
		return "asked"
	case a == ForModel:
		return "the person's window"
	}
	return "your window"
}

// checkWhat says what the call read, relative to the compared window.
func checkWhat(c CheckedPeriod, label string) string {
	switch {
	case len(c.Missing) > 0 && len(c.Extra) > 0 && c.Shifted:
		return "a later window"
	case len(c.Missing) > 0 && len(c.Extra) > 0:
		return "a different window"
	}
	more := len(c.Extra) > 0
	if label == "asked" {
		if more {
			return "more than was asked"
		}
		return "less than was asked"
	}
	if more {
		return "more than " + label
	}
	return "less than " + label
}

// ShiftedConclusion renders, for the model, what a look-back that ran late means for the
// person's window: which part of it the result leaves out, what it includes outside it, and
// that the answer must say so and rest no claim about that time on this result.
func ShiftedConclusion(c CheckedPeriod, p Presentation) (string, error) {
	compared, err := p.Window(c.Compared)
	if err != nil {
		return "", fmt.Errorf("clock: shifted conclusion for %s: compared: %w", textlen.ClipInput(c.Tool), err)
	}
	missing, err := p.joined(c.Missing, " and ")
	if err != nil {
		return "", fmt.Errorf("clock: shifted conclusion for %s: missing: %w", textlen.ClipInput(c.Tool), err)
	}
	extra, err := p.joined(c.Extra, " and ")
	if err != nil {
		return "", fmt.Errorf("clock: shifted conclusion for %s: extra: %w", textlen.ClipInput(c.Tool), err)
	}
	lead := c.Tool + "'s look-back was evaluated after this turn's time, so its result "
	whole := len(c.Missing) == 1 && c.Missing[0].From.Equal(c.Compared.From) && c.Missing[0].To.Equal(c.Compared.To)
	switch {
	case len(c.Missing) == 0:
		return lead + "covers the person's window (" + compared + ") but also includes " + extra +
			", which lies outside it. In the answer, rest no claim about the person's window on that extra time", nil
	case whole && extra != "":
		return lead + "covers none of the person's window (" + compared + ") and includes " + extra +
			" instead. In the answer, say that " + c.Tool + "'s result leaves " + compared +
			" uncovered, and make no claim about that time based on it", nil
	case whole:
		return lead + "covers none of the person's window (" + compared + "). In the answer, say that " +
			c.Tool + "'s result leaves " + compared + " uncovered, and make no claim about that time based on it", nil
	}
	s := lead + "leaves out " + missing + " of the person's window (" + compared + ")"
	if extra != "" {
		s += " and includes " + extra + ", which lies outside it"
	}
	return s + ". In the answer, say that " + c.Tool + "'s result leaves " + missing +
		" uncovered, and make no claim about that time based on it", nil
}

// joined renders each range as a window (Window) and joins them with sep.
func (p Presentation) joined(rs []clock.Range, sep string) (string, error) {
	var b strings.Builder
	for i, r := range rs {
		s, err := p.Window(r)
		if err != nil {
			return "", err
		}
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(s)
	}
	return b.String(), nil
}
