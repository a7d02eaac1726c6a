// This file holds the one instant parser and its two profiles.

package clock

import (
	"fmt"
	"time"
)

// Profile selects how strictly ParseInstant reads an instant.
type Profile uint8

const (
	// Lenient reads periods a tool declares (foreign minters): lower-case t/z and a leap
	// second (:60, read as the next minute's :00) are accepted.
	Lenient Profile = iota
	// Strict reads values the library itself sends to a tool: upper-case T and Z only, and
	// seconds up to 59.
	Strict
)

// String names the profile.
func (p Profile) String() string {
	if p == Strict {
		return "strict"
	}
	return "lenient"
}

// Precision is the finest unit the writer of an instant spelled: minutes, seconds, or a
// number of fraction digits.
type Precision uint8

const (
	// MinutePrecision: hh:mm, no seconds written.
	MinutePrecision Precision = iota
	// SecondPrecision: hh:mm:ss, no fraction written.
	SecondPrecision
)

// FractionPrecision returns the precision of a fraction written with digits digits (1–9).
// Values outside that range are clamped into it.
func FractionPrecision(digits int) Precision {
	digits = min(max(digits, 1), 9)
	return SecondPrecision + Precision(digits)
}

// FractionDigits returns how many fraction digits were written (0 for minutes or seconds).
func (p Precision) FractionDigits() int {
	if p <= SecondPrecision {
		return 0
	}
	return int(p - SecondPrecision)
}

// Step returns the unit of the last written digit: a minute, a second, or 10⁻ᵏ s.
func (p Precision) Step() time.Duration {
	switch p {
	case MinutePrecision:
		return time.Minute
	case SecondPrecision:
		return time.Second
	}
	step := time.Second
	for range p.FractionDigits() {
		step /= 10
	}
	return step
}

// String names the precision: "minute", "second" or "fraction(k)".
func (p Precision) String() string {
	switch p {
	case MinutePrecision:
		return "minute"
	case SecondPrecision:
		return "second"
	}
	return fmt.Sprintf("fraction(%d)", p.FractionDigits())
}

// Instant is a parsed ISO 8601 instant: the moment, in a fixed zone carrying the written
// offset (time.UTC for Z), and the precision it was written at.
type Instant struct {
	Time      time.Time
	Precision Precision
}

// maxInstantLen bounds the input; the longest valid instant has 35 bytes.
const maxInstantLen = 35

// ParseInstant reads s as YYYY-MM-DDThh:mm[:ss[.f{1,9}]] followed by Z or ±hh:mm, under
// profile p. Both profiles refuse: a missing zone, a bare date, a space for T, epoch numbers,
// unpadded or non-ASCII digits, a day past the end of its month (proleptic Gregorian), hour 24,
// minute over 59, an offset over 23:59, more than 9 fraction digits and a fraction without
// seconds. Strict also refuses lower-case t/z and second 60; Lenient rolls second 60 over to
// the next minute. A refusal is an *InstantError.
func ParseInstant(s string, p Profile) (Instant, error) {
	fail := func(reason string) (Instant, error) {
		return Instant{}, &InstantError{Input: clip(s), Profile: p, Reason: reason}
	}
	if len(s) > maxInstantLen {
		return fail("too long to be an instant")
	}
	if len(s) < len("2006-01-02T15:04") {
		if len(s) == len("2006-01-02") && s[4] == '-' && s[7] == '-' {
			return fail("a date alone is not an instant; add a time and a zone")
		}
		return fail("too short to be an instant")
	}
	year, ok1 := digits(s, 0, 4)
	month, ok2 := digits(s, 5, 2)
	day, ok3 := digits(s, 8, 2)
	if !ok1 || !ok2 || !ok3 || s[4] != '-' || s[7] != '-' {
		return fail("the date must be written YYYY-MM-DD with zero-padded digits")
	}
	switch s[10] {
	case 'T':
	case 't':
		if p == Strict {
			return fail("the time separator must be an upper-case T")
		}
	default:
		return fail("a T must separate the date from the time")
	}
	hour, ok4 := digits(s, 11, 2)
	minute, ok5 := digits(s, 14, 2)
	if !ok4 || !ok5 || s[13] != ':' {
		return fail("the time must be written hh:mm with zero-padded digits")
	}
	i := 16
	second, nanos, prec := 0, 0, MinutePrecision
	if i < len(s) && s[i] == ':' {
		sec, ok := digits(s, i+1, 2)
		if !ok {
			return fail("seconds must be two digits")
		}
		second, prec, i = sec, SecondPrecision, i+3
		if i < len(s) && s[i] == '.' {
			i++
			start := i
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				i++
			}
			n := i - start
			if n == 0 || n > 9 {
				return fail("a fraction of a second needs 1 to 9 digits")
			}
			frac, _ := digits(s, start, n)
			for range 9 - n {
				frac *= 10
			}
			nanos, prec = frac, FractionPrecision(n)
		}
	} else if i < len(s) && s[i] == '.' {
		return fail("a fraction of a second needs the seconds written before it")
	}
	if i >= len(s) {
		return fail("the zone is missing; without Z or an offset the instant is ambiguous")
	}
	loc := time.UTC
	switch c := s[i]; c {
	case 'Z', 'z':
		if c == 'z' && p == Strict {
			return fail("the zone designator must be an upper-case Z")
		}
		i++
	case '+', '-':
		oh, ok1 := digits(s, i+1, 2)
		om, ok2 := digits(s, i+4, 2)
		if !ok1 || !ok2 || i+3 >= len(s) || s[i+3] != ':' {
			return fail("the offset must be written ±hh:mm")
		}
		if oh > 23 || om > 59 {
			return fail("the offset must be at most ±23:59")
		}
		off := (oh*60 + om) * 60
		if c == '-' {
			off = -off
		}
		loc, i = time.FixedZone("", off), i+6
	default:
		return fail("the zone must be Z or an offset ±hh:mm")
	}
	if i != len(s) {
		return fail("unexpected text after the zone")
	}
	switch {
	case month < 1 || month > 12:
		return fail("the month must be 01 to 12")
	case day < 1 || day > daysIn(year, month):
		return fail("the day is past the end of its month")
	case hour > 23:
		return fail("the hour must be 00 to 23")
	case minute > 59:
		return fail("the minute must be 00 to 59")
	case second > 60 || (second == 60 && p == Strict):
		if p == Strict {
			return fail("the second must be 00 to 59")
		}
		return fail("the second must be 00 to 60")
	}
	t := time.Date(year, time.Month(month), day, hour, minute, second, nanos, loc)
	return Instant{Time: t, Precision: prec}, nil
}

// digits reads n ASCII digits of s at i as a number.
func digits(s string, i, n int) (int, bool) {
	if i < 0 || i+n > len(s) {
		return 0, false
	}
	v := 0
	for _, c := range []byte(s[i : i+n]) {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

// daysIn returns the length of a month in the proleptic Gregorian calendar.
func daysIn(year, month int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// InstantError is the refusal of an instant: the input (clipped), the profile it was read
// under, and the rule it broke.
type InstantError struct {
	Input   string
	Profile Profile
	Reason  string
}

// Error names the value, the rule it broke, and two well-formed examples.
func (e *InstantError) Error() string {
	return fmt.Sprintf("clock: instant %q refused (%s): %s; write an ISO 8601 instant with a zone, such as 2026-10-09T15:40:00Z or 2026-10-09T08:40:00-07:00",
		e.Input, e.Profile, e.Reason)
}

// UTCString spells t the way rows record instants: UTC, RFC 3339, a fraction only when
// non-zero (2026-10-09T15:40:00Z).
func UTCString(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }
