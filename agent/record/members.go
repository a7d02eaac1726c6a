// Cutting a record's JSON into its top-level members in one pass, so that
// each member is checked and decoded once, by the decoder it goes to,
// instead of the whole document being checked first and the commit log
// scanned again to be cut out.

package record

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/agentfootprint/agentfootprint-go/internal/jsonscan"
)

// members calls fn with the key and the raw value of each member of the
// JSON object data, in order. It checks the object's own syntax (braces,
// keys, colons, commas, nothing but space after it) and only delimits the
// values: fn must check each value it is given (json.Unmarshal does). So
// data is accepted exactly when it is a JSON object whose values are valid.
func members(data []byte, fn func(key string, val []byte) error) error {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return fmt.Errorf("not a JSON object")
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return trailing(data, i+1)
	}
	for {
		if i >= len(data) || data[i] != '"' {
			return fmt.Errorf("offset %d: want a member name", i)
		}
		end, err := stringEnd(data, i)
		if err != nil {
			return err
		}
		key, err := memberName(data[i:end])
		if err != nil {
			return fmt.Errorf("offset %d: %w", i, err)
		}
		i = skipSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			return fmt.Errorf("offset %d: want ':' after %q", i, key)
		}
		i = skipSpace(data, i+1)
		vend, err := valueEnd(data, i)
		if err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		if err := fn(key, data[i:vend]); err != nil {
			return err
		}
		i = skipSpace(data, vend)
		if i >= len(data) {
			return fmt.Errorf("unexpected end of the record")
		}
		switch data[i] {
		case ',':
			i = skipSpace(data, i+1)
		case '}':
			return trailing(data, i+1)
		default:
			return fmt.Errorf("offset %d: want ',' or '}' after %q", i, key)
		}
	}
}

// memberName reads a quoted member name; one with escapes or bytes that
// are not UTF-8 goes through encoding/json.
func memberName(q []byte) (string, error) {
	if body := q[1 : len(q)-1]; plainString(body) && utf8.Valid(body) {
		return string(q[1 : len(q)-1]), nil
	}
	var s string
	if err := json.Unmarshal(q, &s); err != nil {
		return "", err
	}
	return s, nil
}

// trailing checks that only white space follows offset i.
func trailing(data []byte, i int) error {
	if j := skipSpace(data, i); j < len(data) {
		return fmt.Errorf("offset %d: data after the record's object", j)
	}
	return nil
}

func skipSpace(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// stringEnd returns the offset just after the string that opens at i.
func stringEnd(data []byte, i int) (int, error) {
	j := i + 1
	for {
		k := bytes.IndexByte(data[j:], '"')
		if k < 0 {
			return 0, fmt.Errorf("offset %d: unterminated string", i)
		}
		j += k
		// The quote closes the string unless an odd run of backslashes
		// escapes it.
		n := 0
		for b := j - 1; b > i && data[b] == '\\'; b-- {
			n++
		}
		j++
		if n%2 == 0 {
			return j, nil
		}
	}
}

// maxDepth bounds the nesting valueEnd follows; encoding/json refuses
// deeper documents too.
const maxDepth = 10000

// valueEnd returns the offset just after the value that starts at i: a
// string, an object or array (matched brackets outside strings), or a
// literal or number (up to the next delimiter).
func valueEnd(data []byte, i int) (int, error) {
	if i >= len(data) {
		return 0, fmt.Errorf("missing value")
	}
	switch data[i] {
	case '"':
		return stringEnd(data, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(data); {
			switch data[j] {
			case '"':
				end, err := stringEnd(data, j)
				if err != nil {
					return 0, err
				}
				j = end
				continue
			case '{', '[':
				depth++
				if depth > maxDepth {
					return 0, fmt.Errorf("offset %d: nested too deeply", j)
				}
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, nil
				}
			}
			j++
		}
		return 0, fmt.Errorf("offset %d: unterminated value", i)
	}
	j := i
	for j < len(data) {
		switch data[j] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return j, nil
		}
		j++
	}
	return j, nil
}

// decodeBlobs reads the blobs member, an object of base64 strings keyed by
// digest. The form MarshalJSON writes (strings without escapes) is decoded
// straight from the bytes; any other input goes through encoding/json, with
// its result and its errors.
func decodeBlobs(val []byte) (map[string][]byte, error) {
	out := map[string][]byte{}
	err := members(val, func(key string, v []byte) error {
		if len(v) < 2 || v[0] != '"' || !plainString(v[1:len(v)-1]) {
			return errNotPlain
		}
		b := make([]byte, base64.StdEncoding.DecodedLen(len(v)-2))
		n, err := base64.StdEncoding.Decode(b, v[1:len(v)-1])
		if err != nil {
			return errNotPlain
		}
		out[key] = b[:n]
		return nil
	})
	if err == nil {
		return out, nil
	}
	var m map[string][]byte
	if err := json.Unmarshal(val, &m); err != nil {
		return nil, err
	}
	return m, nil
}

// errNotPlain sends decodeBlobs to encoding/json.
var errNotPlain = errors.New("record: not the plain form")

// plainString reports a string body without escapes or control bytes,
// which JSON reads as the bytes themselves.
func plainString(s []byte) bool {
	// s is a body whose end stringEnd found, so a quote in it comes after
	// a backslash, where Plain has already stopped.
	return jsonscan.Plain(s, 0) == len(s)
}
