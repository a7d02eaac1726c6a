// Package textlen measures and cuts text the way every character limit of the
// project counts it: in UTF-16 code units, the unit the recorded wire
// formats and the TypeScript implementation use (result ceilings, question
// lengths, served characters in events). ClipInput, which only shortens a
// refused input inside an error message, counts bytes.
package textlen

import "unicode/utf16"

// UTF16 counts s in UTF-16 code units: one per rune of the Basic
// Multilingual Plane, two per rune above it (a surrogate pair). An invalid
// byte counts as U+FFFD, one unit.
func UTF16(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
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
