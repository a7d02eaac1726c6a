// This file holds the engine's checks for bytes that are not UTF-8 inside a decoded value: where
// the first such key or string is, and the problem that names it. The byte-keeping codec itself
// lives in coverage/wire.

package engine

import "unicode/utf8"

// utf8Fault returns the path of the first key or string inside v that is not valid UTF-8, looking
// at most 64 levels deep (a Go value may hold a cycle). The common case, where every string is
// valid, is checked first without building a path or allocating.
func utf8Fault(v any, at string, depth int) (string, bool) {
	if !hasBadUTF8(v, depth) {
		return "", false
	}
	return utf8Path(v, at, depth)
}

// hasBadUTF8 reports whether a key or string inside v is not valid UTF-8.
func hasBadUTF8(v any, depth int) bool {
	if depth > 64 {
		return false
	}
	switch t := v.(type) {
	case string:
		return !utf8.ValidString(t)
	case Object:
		for _, m := range t {
			if !utf8.ValidString(m.Key) || hasBadUTF8(m.Value, depth+1) {
				return true
			}
		}
	case map[string]any:
		for k, x := range t {
			if !utf8.ValidString(k) || hasBadUTF8(x, depth+1) {
				return true
			}
		}
	case []any:
		for _, x := range t {
			if hasBadUTF8(x, depth+1) {
				return true
			}
		}
	}
	return false
}

// utf8Path finds the path hasBadUTF8 reported, in source order (a map's keys sorted).
func utf8Path(v any, at string, depth int) (string, bool) {
	if depth > 64 {
		return "", false
	}
	switch t := v.(type) {
	case string:
		return at, !utf8.ValidString(t)
	case Object, map[string]any:
		o, _ := plainObject(t)
		for _, m := range o {
			p := join(at, clipKey(m.Key))
			if !utf8.ValidString(m.Key) {
				return p, true
			}
			if f, bad := utf8Path(m.Value, p, depth+1); bad {
				return f, true
			}
		}
	case []any:
		for i, x := range t {
			if f, bad := utf8Path(x, index(at, i), depth+1); bad {
				return f, true
			}
		}
	}
	return "", false
}

// utf8Problem words the fault utf8Fault found.
func utf8Problem(path string) *Problem {
	return problemf(path, "%s holds bytes that are not UTF-8; JSON text must be UTF-8, and this library never replaces a byte", rootName(path))
}
