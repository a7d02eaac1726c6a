// This file holds the instant grammar: ISO 8601 with a zone, one lenient profile, checked by hand
// (never time.Parse) and compared at nanosecond precision.

package coverage

import (
	"fmt"
	"time"
)

// ParseInstant reads s as an instant of the package's one profile:
// YYYY-MM-DDTHH:MM[:SS[.F{1,9}]] followed by Z or ±HH:MM. It accepts a lower-case t or z, -00:00,
// offsets up to ±23:59, second 60 (read as the next minute's :00) and years 0000 to 9999 in the
// proleptic Gregorian calendar. It refuses a missing zone, a bare date, a space for T, unpadded
// fields, impossible dates and times, a ten-digit fraction and a fraction without seconds. The
// returned time is in UTC; the string itself is never rewritten anywhere.
func ParseInstant(s string) (time.Time, bool) {
	t, fault := parseInstant(s)
	return t, fault == ""
}

// parseInstant is ParseInstant that says what is wrong: the fault is "" for an instant, and
// otherwise names the first rule s breaks (a zone missing, an impossible day, an hour of 24, a
// fraction too long, …), so a refusal points at the real mistake.
func parseInstant(s string) (time.Time, string) {
	if len(s) > 35 {
		return time.Time{}, "it is too long to be an instant"
	}
	if len(s) == len("2006-01-02") && s[4] == '-' && s[7] == '-' {
		return time.Time{}, "a date alone is not an instant: add a time and a zone"
	}
	if len(s) < len("2006-01-02T15:04") {
		return time.Time{}, "an instant is written YYYY-MM-DDThh:mm, then optional :ss and a fraction, then Z or ±hh:mm"
	}
	num := func(i, n int) (int, bool) {
		if i+n > len(s) {
			return 0, false
		}
		v := 0
		for k := i; k < i+n; k++ {
			c := s[k]
			if c < '0' || c > '9' {
				return 0, false
			}
			v = v*10 + int(c-'0')
		}
		return v, true
	}
	year, ok1 := num(0, 4)
	month, ok2 := num(5, 2)
	day, ok3 := num(8, 2)
	if !(ok1 && ok2 && ok3) || s[4] != '-' || s[7] != '-' {
		return time.Time{}, "the date must be written YYYY-MM-DD with zero-padded digits"
	}
	if s[10] != 'T' && s[10] != 't' {
		return time.Time{}, "a T must separate the date from the time"
	}
	hour, ok4 := num(11, 2)
	minute, ok5 := num(14, 2)
	if !(ok4 && ok5) || s[13] != ':' {
		return time.Time{}, "the time must be written hh:mm with zero-padded digits"
	}
	i := 16
	sec, nsec := 0, 0
	if i < len(s) && s[i] == ':' {
		v, ok := num(i+1, 2)
		if !ok {
			return time.Time{}, "the seconds must be two digits"
		}
		sec = v
		i += 3
		if i < len(s) && s[i] == '.' {
			i++
			start := i
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				i++
			}
			digits := i - start
			if digits < 1 || digits > 9 {
				return time.Time{}, "a fraction of a second needs 1 to 9 digits"
			}
			f, _ := num(start, digits)
			for d := digits; d < 9; d++ {
				f *= 10
			}
			nsec = f
		}
	} else if i < len(s) && s[i] == '.' {
		return time.Time{}, "a fraction of a second needs the seconds written before it"
	}
	if i >= len(s) {
		return time.Time{}, "the zone is missing: without Z or an offset such as +02:00 an instant names no single moment, and this library never guesses one"
	}
	offset := 0
	switch s[i] {
	case 'Z', 'z':
		i++
	case '+', '-':
		oh, ok := num(i+1, 2)
		om, ok2 := num(i+4, 2)
		if !ok || !ok2 || i+3 >= len(s) || s[i+3] != ':' {
			return time.Time{}, "the offset must be written ±hh:mm"
		}
		if oh > 23 || om > 59 {
			return time.Time{}, "the offset must be at most ±23:59"
		}
		offset = oh*3600 + om*60
		if s[i] == '-' {
			offset = -offset
		}
		i += 6
	default:
		return time.Time{}, "the zone must be Z or an offset ±hh:mm"
	}
	if i != len(s) {
		return time.Time{}, "there is text after the zone"
	}
	switch {
	case month < 1 || month > 12:
		return time.Time{}, "the month must be 01 to 12"
	case day < 1 || day > daysIn(year, month):
		return time.Time{}, fmt.Sprintf("that day does not exist: %04d-%02d has %d days", year, month, daysIn(year, month))
	case hour > 23:
		return time.Time{}, "the hour must be 00 to 23 (midnight at the end of a day is 00:00 of the next)"
	case minute > 59:
		return time.Time{}, "the minute must be 00 to 59"
	case sec > 60:
		return time.Time{}, "the second must be 00 to 60"
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, nsec, time.UTC)
	return t.Add(-time.Duration(offset) * time.Second), ""
}

func daysIn(year, month int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	default:
		return 31
	}
}
