// Package textlen measures and cuts text the way every character limit of the
// project counts it: in UTF-16 code units, the unit the recorded wire
// formats and the TypeScript implementation use (result ceilings, question
// lengths, served characters in events). ClipInput, which only shortens a
// refused input inside an error message, counts bytes.
package textlen

import (
	"unicode/utf16"
	"unicode/utf8"
)

// UTF16 counts s in UTF-16 code units: one per rune of the Basic
// Multilingual Plane, two per rune above it (a surrogate pair). An invalid
// byte counts as U+FFFD, one unit.
func UTF16(s string) int {
	n := 0
	for len(s) > 0 {
		// A run of ASCII is one unit a byte, read eight bytes a step.
		i := 0
		for i+8 <= len(s) && s[i]|s[i+1]|s[i+2]|s[i+3]|s[i+4]|s[i+5]|s[i+6]|s[i+7] < utf8.RuneSelf {
			i += 8
		}
		for i < len(s) && s[i] < utf8.RuneSelf {
			i++
		}
		n += i
		if i == len(s) {
			break
		}
		// One rune past the run, decoded as ranging over s would (an
		// invalid byte is U+FFFD, one unit).
		r, size := utf8.DecodeRuneInString(s[i:])
		n += utf16.RuneLen(r)
		s = s[i+size:]
	}
	return n
}

// Prefix returns the longest prefix of s that holds at most n UTF-16 code
// units, cut on a rune boundary (never inside a surrogate pair).
func Prefix(s string, n int) string {
	units := 0
	for i, r := range s {
		w := utf16.RuneLen(r)
		if units+w > n {
			return s[:i]
		}
		units += w
	}
	return s
}

// ClipInputBytes is how many bytes of a refused input an error repeats.
const ClipInputBytes = 72

// ClipInput shortens a refused input that an error message repeats to at
// most ClipInputBytes bytes, cut on a rune boundary and marked with "…". A
// shorter string is returned as it is.
func ClipInput(s string) string { return clip(s, ClipInputBytes) }

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}
