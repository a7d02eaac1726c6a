// This file holds the writer: Append and Canonicalize. Number formatting is in number.go,
// key ordering in order.go and the strict reader in parse.go.

package jcs

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// ID names this canonicalization in audit headers. A change in the bytes produced for any
// input needs a new id.
const ID = "rfc8785"

// maxSafeInt is 2^53, the largest magnitude below which every integer is a double.
const maxSafeInt = 1 << 53

// Error reports a value that has no canonical form, with the JSON pointer of where it was
// found ("" for the root).
type Error struct {
	// Pointer is the RFC 6901 pointer to the offending value.
	Pointer string
	// Reason says why it cannot be written.
	Reason string
}

// Error implements the error interface.
func (e *Error) Error() string {
	if e.Pointer == "" {
		return "jcs: " + e.Reason
	}
	return fmt.Sprintf("jcs: at %s: %s", e.Pointer, e.Reason)
}

// Canonicalize reads one JSON document strictly (see Parse) and returns its canonical form.
func Canonicalize(data []byte) ([]byte, error) {
	v, err := Parse(data)
	if err != nil {
		return nil, err
	}
	return Append(nil, v)
}

// Append appends the canonical form of v to dst. v may be built from nil, bool, string,
// json.Number, float64, int, int64, map[string]any, map[string]string, []any and []string.
// It refuses NaN and infinities, integers of type int/int64 beyond ±2^53 (they would not
// survive a double; turn them into strings first), json.Number literals that overflow a
// double, strings and keys that are not valid UTF-8, and any other type.
func Append(dst []byte, v any) ([]byte, error) {
	return appendValue(dst, v)
}

// AppendObjectWithout appends the canonical form of the object m without its member
// named skip: what a hash chain hashes when the hash is itself a member. It refuses what
// Append refuses.
func AppendObjectWithout(dst []byte, m map[string]any, skip string) ([]byte, error) {
	return appendObject(dst, m, skip)
}

func escapePointer(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '~':
			out = append(out, '~', '0')
		case '/':
			out = append(out, '~', '1')
		default:
			out = append(out, s[i])
		}
	}
	return string(out)
}

func fail(format string, args ...any) error {
	return &Error{Reason: fmt.Sprintf(format, args...)}
}

// under prefixes the pointer of a child's error with the child's name as the error unwinds,
// so that no path is built unless something fails.
func under(err error, name string) error {
	if e, ok := err.(*Error); ok {
		e.Pointer = "/" + escapePointer(name) + e.Pointer
	}
	return err
}

func appendValue(dst []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case bool:
		if x {
			return append(dst, "true"...), nil
		}
		return append(dst, "false"...), nil
	case string:
		if !utf8.ValidString(x) {
			return nil, fail("string is not valid UTF-8")
		}
		return appendString(dst, x), nil
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return nil, fail("%q is not a JSON number", string(x))
		}
		if math.IsInf(f, 0) {
			return nil, fail("number %s overflows a double", string(x))
		}
		return AppendNumber(dst, f)
	case float64:
		out, err := AppendNumber(dst, x)
		if err != nil {
			return nil, fail("%v", err.(*Error).Reason)
		}
		return out, nil
	case int:
		return appendInt(dst, int64(x))
	case int64:
		return appendInt(dst, x)
	case map[string]any:
		return appendObject(dst, x, "")
	case map[string]string:
		m := make(map[string]any, len(x))
		for k, s := range x {
			m[k] = s
		}
		return appendValue(dst, m)
	case []any:
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendValue(dst, e); err != nil {
				return nil, under(err, strconv.Itoa(i))
			}
		}
		return append(dst, ']'), nil
	case []string:
		dst = append(dst, '[')
		for i, s := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			if !utf8.ValidString(s) {
				return nil, under(fail("string is not valid UTF-8"), strconv.Itoa(i))
			}
			dst = appendString(dst, s)
		}
		return append(dst, ']'), nil
	default:
		return nil, fail("unsupported type %T", v)
	}
}

// appendObject writes m with its members in UTF-16 order, leaving out skip when non-empty.
func appendObject(dst []byte, m map[string]any, skip string) ([]byte, error) {
	var small [16]string
	keys := small[:0]
	for k := range m {
		if k == skip && skip != "" {
			continue
		}
		if !utf8.ValidString(k) {
			return nil, fail("member name %q is not valid UTF-8", k)
		}
		keys = append(keys, k)
	}
	slices.SortFunc(keys, CompareUTF16)
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendString(dst, k)
		dst = append(dst, ':')
		var err error
		if dst, err = appendValue(dst, m[k]); err != nil {
			return nil, under(err, k)
		}
	}
	return append(dst, '}'), nil
}

func appendInt(dst []byte, n int64) ([]byte, error) {
	if n > maxSafeInt || n < -maxSafeInt {
		return nil, fail("integer %d is beyond ±2^53 and would change as a double", n)
	}
	return strconv.AppendInt(dst, n, 10), nil
}

const hexDigits = "0123456789abcdef"

// appendString writes s as a JSON string, escaping only what RFC 8785 requires. s must be
// valid UTF-8.
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\r':
			dst = append(dst, '\\', 'r')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
