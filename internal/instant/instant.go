// Package instant is the module's one ISO 8601 instant grammar, shared by package coverage (the
// periods tools declare), package tool (the iso-range argument spelling) and package clock (every
// instant the time layer reads). It also holds the one table of duration unit letters.
//
// An instant is YYYY-MM-DDThh:mm[:ss[.f{1,9}]] followed by Z or ±hh:mm, read by hand (never
// time.Parse) so that every refusal can name the rule the text breaks.
package instant

import (
	"fmt"
	"time"
)

// Profile selects how strictly [Parse] reads an instant.
type Profile uint8

const (
	// Lenient reads instants other programs wrote (a period a tool declares): a lower-case t or
	// z and second 60 (read as the next minute's :00) are accepted.
	Lenient Profile = iota
	// Strict reads instants the library itself sends: an upper-case T and Z only, seconds up to
	// 59.
	Strict
)

// Parsed is an instant once read: the moment, in UTC for Z and in a fixed zone carrying the
// written offset otherwise; how many fraction digits were written; and whether seconds were.
type Parsed struct {
	Time           time.Time
	HasSeconds     bool
	FractionDigits int
}

// MaxLen is the length of the longest instant the grammar accepts.
const MaxLen = len("2006-01-02T15:04:05.000000000+07:00")

// Parse reads s under profile p. It returns the instant, or a fault: a lower-case clause naming
// the first rule s breaks ("the zone is missing: …", "that day does not exist: 2026-02 has 28
// days", "the hour must be 00 to 23 …"). Both profiles refuse a missing zone, a bare date, a
// space for T, epoch numbers, unpadded or non-ASCII digits, a day past the end of its month
// (proleptic Gregorian), hour 24, minute over 59, an offset over 23:59, more than nine fraction
// digits and a fraction without seconds.
func Parse(s string, p Profile) (Parsed, string) {
	fail := func(fault string) (Parsed, string) { return Parsed{}, fault }
	if len(s) > MaxLen {
		return fail("it is too long to be an instant")
	}
	if len(s) == len("2006-01-02") && s[4] == '-' && s[7] == '-' {
		return fail("a date alone is not an instant: add a time and a zone")
	}
	if len(s) < len("2006-01-02T15:04") {
		return fail("it is too short to be an instant, which is written YYYY-MM-DDThh:mm, then optional :ss and a fraction, then Z or ±hh:mm")
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
	out := Parsed{}
	second, nanos := 0, 0
	if i < len(s) && s[i] == ':' {
		sec, ok := digits(s, i+1, 2)
		if !ok {
			return fail("the seconds must be two digits")
		}
		second, out.HasSeconds, i = sec, true, i+3
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
			nanos, out.FractionDigits = frac, n
		}
	} else if i < len(s) && s[i] == '.' {
		return fail("a fraction of a second needs the seconds written before it")
	}
	if i >= len(s) {
		return fail("the zone is missing: without Z or an offset such as +02:00 an instant names no single moment, and it is never guessed")
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
		return fail("there is text after the zone")
	}
	switch {
	case month < 1 || month > 12:
		return fail("the month must be 01 to 12")
	case day < 1 || day > DaysIn(year, month):
		return fail(fmt.Sprintf("that day does not exist: %04d-%02d has %d days", year, month, DaysIn(year, month)))
	case hour > 23:
		return fail("the hour must be 00 to 23 (midnight at the end of a day is 00:00 of the next)")
	case minute > 59:
		return fail("the minute must be 00 to 59")
	case second > 59 && p == Strict:
		return fail("the second must be 00 to 59")
	case second > 60:
		return fail("the second must be 00 to 60")
	}
	out.Time = time.Date(year, time.Month(month), day, hour, minute, second, nanos, loc)
	return out, ""
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

// DaysIn returns the length of a month in the proleptic Gregorian calendar.
func DaysIn(year, month int) int {
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

// UnitLetters are the duration unit letters, shortest first: s, m, h, d and w.
const UnitLetters = "smhdw"

// UnitLength maps a duration unit letter to its length. d and w are machine durations (24 h and
// 7 × 24 h), not calendar days.
func UnitLength(c byte) (time.Duration, bool) {
	switch c {
	case 's':
		return time.Second, true
	case 'm':
		return time.Minute, true
	case 'h':
		return time.Hour, true
	case 'd':
		return 24 * time.Hour, true
	case 'w':
		return 7 * 24 * time.Hour, true
	}
	return 0, false
}
