// This file holds clip, which shortens a refused input before an error repeats it.

package clock

// clipLen is how many bytes of a refused input an error repeats.
const clipLen = 72

// clip shortens s for an error message, cutting on a rune boundary and marking the cut.
func clip(s string) string {
	if len(s) <= clipLen {
		return s
	}
	cut := clipLen
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}
