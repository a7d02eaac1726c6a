// This file holds the instant grammar: ISO 8601 with a zone, one lenient profile, checked by hand
// (never time.Parse) and compared at nanosecond precision.

package coverage

import "time"

// ParseInstant reads s as an instant of the package's one profile:
// YYYY-MM-DDTHH:MM[:SS[.F{1,9}]] followed by Z or ±HH:MM. It accepts a lower-case t or z, -00:00,
// offsets up to ±23:59, second 60 (read as the next minute's :00) and years 0000 to 9999 in the
// proleptic Gregorian calendar. It refuses a missing zone, a bare date, a space for T, unpadded
// fields, impossible dates and times, a ten-digit fraction and a fraction without seconds. The
// returned time is in UTC; the string itself is never rewritten anywhere.
func ParseInstant(s string) (time.Time, bool) {
	// Shortest: YYYY-MM-DDTHH:MMZ (17); longest: ...:SS.fffffffff+HH:MM (35).
	if len(s) < 17 || len(s) > 35 {
		return time.Time{}, false
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
	hour, ok4 := num(11, 2)
	minute, ok5 := num(14, 2)
	if !(ok1 && ok2 && ok3 && ok4 && ok5) || s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != 't') || s[13] != ':' {
		return time.Time{}, false
	}
	i := 16
	sec, nsec := 0, 0
	if i < len(s) && s[i] == ':' {
		v, ok := num(i+1, 2)
		if !ok {
			return time.Time{}, false
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
				return time.Time{}, false
			}
			f, _ := num(start, digits)
			for d := digits; d < 9; d++ {
				f *= 10
			}
			nsec = f
		}
	}
	if i >= len(s) {
		return time.Time{}, false
	}
	offset := 0
	switch s[i] {
	case 'Z', 'z':
		i++
	case '+', '-':
		oh, ok := num(i+1, 2)
		om, ok2 := num(i+4, 2)
		if !ok || !ok2 || i+3 >= len(s) || s[i+3] != ':' || oh > 23 || om > 59 {
			return time.Time{}, false
		}
		offset = oh*3600 + om*60
		if s[i] == '-' {
			offset = -offset
		}
		i += 6
	default:
		return time.Time{}, false
	}
	if i != len(s) {
		return time.Time{}, false
	}
	if month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour > 23 || minute > 59 || sec > 60 {
		return time.Time{}, false
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, nsec, time.UTC)
	return t.Add(-time.Duration(offset) * time.Second), true
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
