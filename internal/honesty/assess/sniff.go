// This file holds the shape sniff: a look at a served result's bytes that settles, without decoding
// it, the readings whose answer its outline alone decides (no JSON value at all, a bare empty list,
// an object none of whose top-level keys any reading looks at), and leaves every other result to
// the decoder.

package assess

import "github.com/agentfootprint/agentfootprint-go/coverage/wire"

// sniffResult reads served text the way decoded, readValue and isEnvelope together would, for the
// results whose outline decides it, and reports ok false for every other one. It never claims more
// than the outline proves:
//
//   - text whose first non-space byte opens neither a list nor an object is not decoded at all, so
//     it reads unknown and is no envelope;
//   - a list that closes right after it opens is the empty list whatever follows it (only the first
//     value is the result), so it reads empty-undeclared and is no envelope;
//   - an object whose top-level keys include no af_absent, no af_semantics, not both af_coverage and
//     result, and not rowsAt (when the app named one) reads unknown and is no envelope: every
//     reading of an object starts from one of those keys. Whether the object is valid JSON does not
//     matter, since text that does not decode reads unknown too; what matters is that, when it is
//     valid, the scan below sees exactly its top-level keys. A key holding an escape, or anything
//     the scan does not expect, leaves the result to the decoder.
func sniffResult(s, rowsAt string) (reading emptiness, envelope, ok bool) {
	i := skipSpace(s, 0)
	if i == len(s) || (s[i] != '[' && s[i] != '{') {
		return unreadable, false, true
	}
	if s[i] == '[' {
		if j := skipSpace(s, i+1); j < len(s) && s[j] == ']' {
			return emptyUndeclared, false, true
		}
		return "", false, false
	}
	var coverageKey, resultKey bool
	i = skipSpace(s, i+1)
	if i < len(s) && s[i] == '}' {
		return unreadable, false, true
	}
	for {
		key, end, ok := plainString(s, i)
		if !ok {
			return "", false, false
		}
		switch key {
		case wire.AbsenceMarker, wire.SemanticsMarker:
			return "", false, false
		case wire.CoverageMarker:
			coverageKey = true
		case "result":
			resultKey = true
		}
		if (coverageKey && resultKey) || (rowsAt != "" && key == rowsAt) {
			return "", false, false
		}
		i = skipSpace(s, end)
		if i == len(s) || s[i] != ':' {
			return "", false, false
		}
		i, ok = skipValue(s, skipSpace(s, i+1))
		if !ok {
			return "", false, false
		}
		i = skipSpace(s, i)
		if i == len(s) {
			return "", false, false
		}
		switch s[i] {
		case '}':
			return unreadable, false, true
		case ',':
			i = skipSpace(s, i+1)
		default:
			return "", false, false
		}
	}
}

// skipSpace returns the index of the first byte at or after i that is not JSON white space.
func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// plainString reads the string token opening at i when it holds no escape: its bytes and the index
// after its closing quote. A token that is not a string, holds a backslash, or does not close
// reports false.
func plainString(s string, i int) (string, int, bool) {
	if i >= len(s) || s[i] != '"' {
		return "", 0, false
	}
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '"':
			return s[i+1 : j], j + 1, true
		case '\\':
			return "", 0, false
		}
	}
	return "", 0, false
}

// skipValue returns the index after the value starting at i: a string (escapes honoured), a list
// or object (nesting counted, strings inside skipped), or a bare token running to the next
// delimiter. It reports false when the value is missing or does not close. On valid JSON it stops
// exactly where the value ends; on anything else it only promises to stop inside s.
func skipValue(s string, i int) (int, bool) {
	if i >= len(s) {
		return 0, false
	}
	switch s[i] {
	case '"':
		return skipString(s, i)
	case '{', '[':
		depth := 0
		for i < len(s) {
			switch s[i] {
			case '"':
				end, ok := skipString(s, i)
				if !ok {
					return 0, false
				}
				i = end
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, true
				}
			}
			i++
		}
		return 0, false
	case ',', ':', '}', ']':
		return 0, false
	}
	start := i
	for i < len(s) {
		switch s[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i, i > start
		}
		i++
	}
	return 0, false
}

// skipString returns the index after the string token opening at i, stepping over every escaped
// byte, and false when it does not close.
func skipString(s string, i int) (int, bool) {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '"':
			return j + 1, true
		case '\\':
			j++
		}
	}
	return 0, false
}
