// This file holds the strict instant reader used by the iso-range
// spelling: a hand-written scanner, no regexp, no allocation.

package tool

import "time"

// instant holds the fields of a strict instant once its text is checked.
type instant struct {
	year, month, day, hour, minute, second, nanos int
	offsetSeconds                                 int
}

func (in instant) time() time.Time {
	zone := time.UTC
	if in.offsetSeconds != 0 {
		zone = time.FixedZone("", in.offsetSeconds)
	}
	return time.Date(in.year, time.Month(in.month), in.day, in.hour, in.minute, in.second, in.nanos, zone)
}

// parseStrictInstant reads YYYY-MM-DDThh:mm[:ss[.f{1,9}]](Z|±hh:mm) with
// upper-case T and Z, a real calendar day, hour ≤ 23, minute and second
// ≤ 59 and an offset ≤ 23:59.
func parseStrictInstant(s string) (instant, bool) {
	var in instant
	digits := func(at, n int) (int, bool) {
		if at+n > len(s) {
			return 0, false
		}
		v := 0
		for i := at; i < at+n; i++ {
			c := s[i]
			if c < '0' || c > '9' {
				return 0, false
			}
			v = v*10 + int(c-'0')
		}
		return v, true
	}
	expect := func(at int, c byte) bool { return at < len(s) && s[at] == c }

	var ok bool
	if in.year, ok = digits(0, 4); !ok || !expect(4, '-') {
		return in, false
	}
	if in.month, ok = digits(5, 2); !ok || !expect(7, '-') {
		return in, false
	}
	if in.day, ok = digits(8, 2); !ok || !expect(10, 'T') {
		return in, false
	}
	if in.hour, ok = digits(11, 2); !ok || !expect(13, ':') {
		return in, false
	}
	if in.minute, ok = digits(14, 2); !ok {
		return in, false
	}
	at := 16
	if expect(at, ':') {
		if in.second, ok = digits(at+1, 2); !ok {
			return in, false
		}
		at += 3
		if expect(at, '.') {
			at++
			start := at
			for at < len(s) && s[at] >= '0' && s[at] <= '9' {
				at++
			}
			n := at - start
			if n < 1 || n > 9 {
				return in, false
			}
			frac, _ := digits(start, n)
			for i := n; i < 9; i++ {
				frac *= 10
			}
			in.nanos = frac
		}
	}
	switch {
	case expect(at, 'Z'):
		at++
	case expect(at, '+') || expect(at, '-'):
		sign := 1
		if s[at] == '-' {
			sign = -1
		}
		oh, okH := digits(at+1, 2)
		if !okH || !expect(at+3, ':') {
			return in, false
		}
		om, okM := digits(at+4, 2)
		if !okM || oh > 23 || om > 59 {
			return in, false
		}
		in.offsetSeconds = sign * (oh*3600 + om*60)
		at += 6
	default:
		return in, false
	}
	if at != len(s) {
		return in, false
	}
	if in.month < 1 || in.month > 12 || in.day < 1 || in.day > daysIn(in.year, in.month) {
		return in, false
	}
	if in.hour > 23 || in.minute > 59 || in.second > 59 {
		return in, false
	}
	return in, true
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
	}
	return 31
}
