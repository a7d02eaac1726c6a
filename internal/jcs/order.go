// This file orders object member names by their UTF-16 code units, as RFC 8785 requires.
// Go's byte order (code point order) differs for characters above U+FFFF, whose UTF-16
// surrogates (U+D800–U+DFFF) sort before U+E000–U+FFFF.

package jcs

import "unicode/utf8"

// CompareUTF16 compares a and b by their UTF-16 code units, returning -1, 0 or +1. Both are
// expected to be valid UTF-8.
func CompareUTF16(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if a[i] < utf8.RuneSelf && b[j] < utf8.RuneSelf {
			if a[i] != b[j] {
				return cmpInt(int(a[i]), int(b[j]))
			}
			i++
			j++
			continue
		}
		ra, na := utf8.DecodeRuneInString(a[i:])
		rb, nb := utf8.DecodeRuneInString(b[j:])
		if ra != rb {
			if ua, ub := firstUnit(ra), firstUnit(rb); ua != ub {
				return cmpInt(ua, ub)
			}
			// Same high surrogate: both are above U+FFFF and the low surrogates
			// order as the runes do.
			return cmpInt(int(ra), int(rb))
		}
		i += na
		j += nb
	}
	return cmpInt(len(a)-i, len(b)-j)
}

// firstUnit returns the first UTF-16 code unit of r.
func firstUnit(r rune) int {
	if r >= 0x10000 {
		return 0xD800 + int((r-0x10000)>>10)
	}
	return int(r)
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
