// This file holds the served time line: the one library-marked note appended to every model
// request of a turn under the time layer, carrying the turn's time and the time conclusions.

package clock

import (
	"fmt"
	"strings"
)

// TimeLineMarker opens the served time line: it says who wrote the note (the tool runtime,
// not the person), that it corrects nothing, and that the reply still goes to the person,
// grounded on the tool results.
const TimeLineMarker = "[Automated note from the tool runtime. The person did not write it and it corrects nothing; reply to the person based on the tool results.]"

// TimeLine is what the served time line is built from. Every list holds finished lines for
// the model: CheckLines from CheckLine(…, ForModel), HeldLines from HeldLine, ClockLines from
// ClockLines(…, ForModel).
type TimeLine struct {
	Clock      Clock
	CheckLines []string
	HeldLines  []string
	ClockLines []string
}

// ServedTimeLine builds the text of the served time line. Parts appear in a fixed order, each
// only when it has content: the marker; the turn's time; the window the person set in the app;
// the tools' time limits; the time no source holds; the clocks (and the unknown-zone line).
// A zero Clock, or a window that cannot be rendered, is refused.
func ServedTimeLine(tl TimeLine) (string, error) {
	c := tl.Clock
	if c.IsZero() {
		return "", fmt.Errorf("clock: a time line needs the turn's clock")
	}
	var b strings.Builder
	b.WriteString(TimeLineMarker)
	b.WriteString(" ")
	b.WriteString(ClockSentence(c))
	if w, ok := c.Window(); ok {
		s, err := c.Presentation().Window(w)
		if err != nil {
			return "", fmt.Errorf("clock: time line window: %w", err)
		}
		b.WriteString(" The person set the window " + s + " in the app; a call may pass that window as written, and an answer built on it names that window.")
	}
	if len(tl.CheckLines) > 0 {
		b.WriteString(" The tools read a different stretch of time than the one asked about, and the answer must say so: ")
		b.WriteString(strings.Join(tl.CheckLines, "; "))
		b.WriteString(". Report the time each result actually covers, and make no claim about time that no result covers.")
	}
	if len(tl.HeldLines) > 0 {
		b.WriteString(" Some of the asked time is held by no source: ")
		b.WriteString(strings.Join(tl.HeldLines, "; "))
		b.WriteString(". Tell the person which time each source has data for, and make no claim about the rest.")
	}
	clocks := tl.ClockLines
	if c.ZoneUnknown() {
		clocks = append(clocks[:len(clocks):len(clocks)], UnknownZoneLine)
	}
	if len(clocks) > 0 {
		b.WriteString(" Clocks: ")
		b.WriteString(strings.Join(clocks, "; "))
		b.WriteString(".")
	}
	return b.String(), nil
}
