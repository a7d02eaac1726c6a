// This file holds the pure time lines the limits block and the served time line print: the
// Period: line in the person's zone, the held line, the clock lines, the unknown-zone line and
// the clock sentence. Each takes plain data and a Presentation, never a ledger row.

package clock

import (
	"fmt"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/internal/textlen"
)

// Audience names who reads a line: the person (the limits block) or the model (the served
// time line).
type Audience string

// The two audiences.
const (
	ForPerson Audience = "person"
	ForModel  Audience = "model"
)

// SpanText is an inclusive span as a tool declared it: two instants, verbatim.
type SpanText struct {
	From string
	To   string
}

// DeclaredPeriod is what one result declared about its read, verbatim: the span queried, the
// span the store held (nil when the tool stated it does not know), and when the read ran
// ("" when not declared).
type DeclaredPeriod struct {
	Queried SpanText
	Held    *SpanText
	ReadAt  string
}

// HeldUnknownWords is what the Period: line says in place of the held span when the tool
// stated it does not know what its store holds. The zoned line uses the same words as the raw
// line of package coverage (which this package does not import), so the two must stay equal.
const HeldUnknownWords = "the store did not state what time it holds"

// PeriodLine renders one declaring call's Period: line in the presentation's zone:
// "<tool> queried <span>; the store holds <span>", then "; read at <instant>" when the read
// time was declared. It carries no verdict word. A malformed instant or a reversed span is
// refused, naming the part.
func PeriodLine(tool string, d DeclaredPeriod, p Presentation) (string, error) {
	queried, err := p.Span(d.Queried.From, d.Queried.To)
	if err != nil {
		return "", fmt.Errorf("clock: period line for %s: queried: %w", textlen.ClipInput(tool), err)
	}
	held := HeldUnknownWords
	if d.Held != nil {
		s, err := p.Span(d.Held.From, d.Held.To)
		if err != nil {
			return "", fmt.Errorf("clock: period line for %s: held: %w", textlen.ClipInput(tool), err)
		}
		held = "the store holds " + s
	}
	line := tool + " queried " + queried + "; " + held
	if d.ReadAt != "" {
		at, err := p.Instant(d.ReadAt)
		if err != nil {
			return "", fmt.Errorf("clock: period line for %s: readAt: %w", textlen.ClipInput(tool), err)
		}
		line += "; read at " + at
	}
	return line, nil
}

// HeldSpan is what a not-held or partly-held call asked about beside what its source holds,
// as the tool declared both. Partly is true for a partly-held verdict.
type HeldSpan struct {
	Queried SpanText
	Held    SpanText
	Partly  bool
}

// HeldLine renders the model's held line: the library, not the model, converts the source's
// instants into the person's zone and says how much of the asked time the source has. A
// malformed instant is refused.
func HeldLine(tool string, h HeldSpan, p Presentation) (string, error) {
	asked, err := p.Span(h.Queried.From, h.Queried.To)
	if err != nil {
		return "", fmt.Errorf("clock: held line for %s: queried: %w", textlen.ClipInput(tool), err)
	}
	held, err := p.Span(h.Held.From, h.Held.To)
	if err != nil {
		return "", fmt.Errorf("clock: held line for %s: held: %w", textlen.ClipInput(tool), err)
	}
	how := "none of the asked time"
	if h.Partly {
		how = "only part of the asked time"
	}
	return tool + " was asked about " + asked + "; its source has data only for " + held + ", " + how, nil
}

// SourceClock is one tool whose dataset declares the zone of its wall-clock axis.
type SourceClock struct {
	Tool string
	Zone string
}

// DistinctZones returns the zones of sources, each once, in the order met.
func DistinctZones(sources []SourceClock) []string {
	var zones []string
	for _, s := range sources {
		if !contains(zones, s.Zone) {
			zones = append(zones, s.Zone)
		}
	}
	return zones
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// ClockLines names the clocks the turn's sources keep. The person reads one line per distinct
// (tool, zone), in the order met, then — when the sources use two or more zones — the line
// saying they differ; the model reads only that last line. The lines name clocks; every
// comparison the library makes is on instants.
func ClockLines(sources []SourceClock, a Audience) []string {
	var lines []string
	if a == ForPerson {
		var seen []SourceClock
		for _, s := range sources {
			if containsSource(seen, s) {
				continue
			}
			seen = append(seen, s)
			lines = append(lines, s.Tool+" reports wall-clock times in "+s.Zone+", as the tool declares; the library compares instants, not wall times")
		}
	}
	if zones := DistinctZones(sources); len(zones) >= 2 {
		lines = append(lines, "the sources use different clocks ("+strings.Join(zones, ", ")+"); the library compares instants, not wall times")
	}
	return lines
}

func containsSource(xs []SourceClock, x SourceClock) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// UnknownZoneLine is printed, for the person and the model, whenever times are spelled in UTC
// because nobody named the person's zone.
const UnknownZoneLine = "all times here are in UTC because the person's time zone is unknown"

// ClockSentence renders the turn's time for the model: the weekday, the date and the wall time
// (now cut to the minute) in the person's zone, or in UTC with the reason when the zone is
// unknown. For example "Time of this turn: Friday 2026-10-09 08:40 America/Los_Angeles
// (UTC-07:00)."
func ClockSentence(c Clock) string {
	now := c.Now()
	w, off := wallOf(now, c.Zone().Location())
	b := make([]byte, 0, 96)
	b = append(b, "Time of this turn: "...)
	b = append(b, w.Weekday().String()...)
	b = append(b, ' ')
	b = appendEnd(b, w, lvMinute)
	b = append(b, ' ')
	if c.ZoneUnknown() {
		b = append(b, "UTC (the person's time zone is unknown)."...)
		return string(b)
	}
	b = c.Presentation().appendTag(b, off)
	return string(append(b, '.'))
}
