// This file holds the one renderer of person-facing times: Bind(zone) → Presentation.

package clock

import (
	"bytes"
	"fmt"
	"strconv"
	"time"

	"github.com/agentfootprint/agentfootprint-go/clock"
	"github.com/agentfootprint/agentfootprint-go/internal/textlen"
	"github.com/agentfootprint/agentfootprint-go/internal/tz"
)

// Grain is the precision a half-open clock.Range is shown at. The empty Grain (Exact) shows both
// ends as they are, at their natural precision.
type Grain string

// The grains clock.Range accepts.
const (
	Exact       Grain = ""
	GrainSecond Grain = "second"
	GrainMinute Grain = "minute"
	GrainHour   Grain = "hour"
	GrainDay    Grain = "day"
	GrainWeek   Grain = "week"
	GrainMonth  Grain = "month"
	GrainYear   Grain = "year"
)

// level is how much of a wall time is spelled, coarsest first.
type level uint8

const (
	lvYear   level = iota // 2026
	lvMonth               // 2026-10
	lvDay                 // 2026-10-09
	lvHour                // 2026-10-09 08:00
	lvMinute              // 2026-10-09 08:40
	lvSecond              // 2026-10-09 08:40:03
	lvMilli               // 2026-10-09 08:40:03.300
)

// levelOf maps a grain to what is spelled; ok is false for an unknown grain or Exact.
func levelOf(g Grain) (level, bool) {
	switch g {
	case GrainSecond:
		return lvSecond, true
	case GrainMinute:
		return lvMinute, true
	case GrainHour:
		return lvHour, true
	case GrainDay, GrainWeek:
		return lvDay, true
	case GrainMonth:
		return lvMonth, true
	case GrainYear:
		return lvYear, true
	}
	return 0, false
}

// wallOf returns t's wall time in loc as a UTC time with the same fields (so reading them
// needs no further zone lookups), and loc's offset at t in seconds.
func wallOf(t time.Time, loc *time.Location) (time.Time, int) {
	_, off := t.In(loc).Zone()
	return t.UTC().Add(time.Duration(off) * time.Second), off
}

// natural is the precision a wall time needs: minutes, or seconds when the second is not
// zero, or milliseconds when the millisecond is not zero. Sub-millisecond digits never show.
func natural(w time.Time) level {
	switch {
	case w.Nanosecond()/1e6 != 0:
		return lvMilli
	case w.Second() != 0:
		return lvSecond
	}
	return lvMinute
}

// Presentation renders instants, inclusive spans and half-open ranges in one zone. Every
// person-facing time the library writes goes through it. It is a small value, safe to copy
// and to share between goroutines.
type Presentation struct {
	zone tz.Zone
}

// Bind returns the Presentation for zone z. The zero tz.Zone renders in UTC.
func Bind(z tz.Zone) Presentation { return Presentation{zone: z} }

// tz.Zone returns the zone the presentation renders in.
func (p Presentation) Zone() tz.Zone { return p.zone }

// Instant renders one instant (Lenient profile) at its natural precision, e.g.
// "2026-10-09 08:40:03 America/Los_Angeles (UTC-07:00)". A malformed instant is refused.
func (p Presentation) Instant(s string) (string, error) {
	in, err := ParseInstant(s, Lenient)
	if err != nil {
		return "", err
	}
	return p.At(in.Time), nil
}

// At renders the instant t at its natural precision.
func (p Presentation) At(t time.Time) string {
	w, _ := wallOf(t, p.zone.Location())
	return p.render(t, t, natural(w))
}

// Span renders an inclusive span as declared (both ends Lenient instants), at the finer of
// the two ends' natural precisions. A malformed end, or from after to, is refused.
func (p Presentation) Span(from, to string) (string, error) {
	a, err := ParseInstant(from, Lenient)
	if err != nil {
		return "", fmt.Errorf("clock: span.from: %w", err)
	}
	b, err := ParseInstant(to, Lenient)
	if err != nil {
		return "", fmt.Errorf("clock: span.to: %w", err)
	}
	return p.SpanOf(a.Time, b.Time)
}

// SpanOf renders the inclusive span [from, to]; from after to is refused.
func (p Presentation) SpanOf(from, to time.Time) (string, error) {
	if from.After(to) {
		return "", fmt.Errorf("clock: span from %s is after its end %s", UTCString(from), UTCString(to))
	}
	loc := p.zone.Location()
	wa, _ := wallOf(from, loc)
	wb, _ := wallOf(to, loc)
	lv := max(natural(wa), natural(wb))
	return p.render(from, to, lv), nil
}

// clock.Range renders the half-open range r at grain g. With a grain, the ends shown are From and
// the last instant inside the range (To − 1 ms, or To cut to the millisecond when it has a
// sub-millisecond part), each cut to the grain: second, minute, hour (HH:00), day and week
// (the date), month (YYYY-MM), year (YYYY). With Exact both ends are shown as they are at the
// finer natural precision. A range failing Check, an empty range at a grain, and an unknown
// grain are refused.
func (p Presentation) Range(r clock.Range, g Grain) (string, error) {
	if err := r.Check(); err != nil {
		return "", err
	}
	if g == Exact {
		return p.SpanOf(r.From, r.To)
	}
	lv, ok := levelOf(g)
	if !ok {
		return "", fmt.Errorf("clock: unknown grain %q (want second, minute, hour, day, week, month or year)", textlen.ClipInput(string(g)))
	}
	if !r.From.Before(r.To) {
		return "", fmt.Errorf("clock: the range %s to %s is empty; it has no last instant to show", UTCString(r.From), UTCString(r.To))
	}
	return p.render(r.From, lastInside(r.To), lv), nil
}

// Window renders the half-open range r the way every window a person or the model reads is
// printed (check lines, shifted conclusions, the person's window on the time line): From, then
// To, the moment the window stops, which is itself not part of it. Both ends are cut to the
// second. A window that stops at the moment of the question and a read that includes that
// moment (a tool's declared span ends on its last instant, one millisecond further) therefore
// print the same end; the library never counts a difference of a millisecond or less. A
// range failing Check is refused.
func (p Presentation) Window(r clock.Range) (string, error) {
	if err := r.Check(); err != nil {
		return "", err
	}
	return p.render(r.From, r.To, lvSecond), nil
}

// Between is clock.Range for callers that cannot name this package's types (the coverage
// package's presenter interface): the half-open range [from, to) at grain g.
func (p Presentation) Between(from, to time.Time, g string) (string, error) {
	return p.Range(clock.Range{From: from, To: to}, Grain(g))
}

// lastInside returns the last millisecond inside a range that ends (exclusive) at to.
func lastInside(to time.Time) time.Time {
	if to.Nanosecond()%int(time.Millisecond) != 0 {
		return to.Truncate(time.Millisecond)
	}
	return to.Add(-time.Millisecond)
}

// render spells the two ends a and b (equal for a single instant) at level lv, choosing the
// first of the rendering rules that applies:
//
//  1. different offsets (a DST change) in a zone other than UTC:
//     "<a> (<offA>) – <b> (<offB>) <zone>"
//  2. both ends spell the same: "<a> <tag>"
//  3. same date, with clock parts: "<date> <clockA>–<clockB> <tag>"
//  4. different dates, with clock parts: "<a>–<b> <tag>"
//  5. date-only ends: "<a> – <b> <tag>"
func (p Presentation) render(a, b time.Time, lv level) string {
	loc := p.zone.Location()
	wa, offA := wallOf(a, loc)
	wb, offB := wallOf(b, loc)
	var la, lb [40]byte
	left := appendEnd(la[:0], wa, lv)
	right := appendEnd(lb[:0], wb, lv)

	out := make([]byte, 0, 2*len(left)+len(p.zone.String())+32)
	switch {
	case offA != offB && !p.zone.IsUTCName():
		out = append(out, left...)
		out = append(out, " ("...)
		out = appendOffset(out, offA)
		out = append(out, ") – "...)
		out = append(out, right...)
		out = append(out, " ("...)
		out = appendOffset(out, offB)
		out = append(out, ") "...)
		out = append(out, p.zone.String()...)
		return string(out)
	case string(left) == string(right):
		out = append(out, left...)
	case lv >= lvHour && sameDate(wa, wb):
		out = append(out, left...) // the date and the first clock
		out = append(out, "–"...)
		out = append(out, right[bytes.IndexByte(right, ' ')+1:]...)
	case lv >= lvHour:
		out = append(out, left...)
		out = append(out, "–"...)
		out = append(out, right...)
	default:
		out = append(out, left...)
		out = append(out, " – "...)
		out = append(out, right...)
	}
	out = append(out, ' ')
	out = p.appendTag(out, offA)
	return string(out)
}

// appendTag writes the zone tag: UTC or Etc/UTC alone, any other zone with its offset.
func (p Presentation) appendTag(b []byte, off int) []byte {
	b = append(b, p.zone.String()...)
	if p.zone.IsUTCName() {
		return b
	}
	b = append(b, " ("...)
	b = appendOffset(b, off)
	return append(b, ')')
}

// appendEnd spells wall time w at level lv: the date, then the clock when lv has one.
func appendEnd(b []byte, w time.Time, lv level) []byte {
	year, month, day := w.Date()
	b = appendYear(b, year)
	if lv >= lvMonth {
		b = append(b, '-')
		b = append2(b, int(month))
	}
	if lv >= lvDay {
		b = append(b, '-')
		b = append2(b, day)
	}
	if lv < lvHour {
		return b
	}
	hour, minute, second := w.Clock()
	b = append(b, ' ')
	b = append2(b, hour)
	b = append(b, ':')
	if lv == lvHour {
		return append(b, "00"...)
	}
	b = append2(b, minute)
	if lv >= lvSecond {
		b = append(b, ':')
		b = append2(b, second)
	}
	if lv >= lvMilli {
		ms := w.Nanosecond() / 1e6
		b = append(b, '.', byte('0'+ms/100), byte('0'+ms/10%10), byte('0'+ms%10))
	}
	return b
}

// appendOffset spells an offset in seconds as UTC±HH:MM, with :SS for a non-minute offset.
func appendOffset(b []byte, off int) []byte {
	b = append(b, "UTC"...)
	sign := byte('+')
	if off < 0 {
		sign, off = '-', -off
	}
	b = append(b, sign)
	b = append2(b, off/3600)
	b = append(b, ':')
	b = append2(b, off/60%60)
	if off%60 != 0 {
		b = append(b, ':')
		b = append2(b, off%60)
	}
	return b
}

// appendYear writes a year with at least four digits (a sign for years before 1).
func appendYear(b []byte, y int) []byte {
	if y >= 0 && y <= 9999 {
		return append(b, byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10))
	}
	return strconv.AppendInt(b, int64(y), 10)
}

// append2 writes 0–99 as two digits.
func append2(b []byte, v int) []byte { return append(b, byte('0'+v/10), byte('0'+v%10)) }

// sameDate reports whether two wall times fall on the same calendar date.
func sameDate(a, b time.Time) bool {
	ya, ma, da := a.Date()
	yb, mb, db := b.Date()
	return ya == yb && ma == mb && da == db
}
