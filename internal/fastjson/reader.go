// Package fastjson reads JSON in the one form this module's encoders write
// it, without encoding/json's reflection: exact member names, strings
// without escapes where a plain field is expected, integers, no nulls.
// Every method reports false when the input is not in that form, and the
// caller then hands the bytes to encoding/json, which reads every form and
// refuses what is not JSON. Values kept raw are checked as JSON first, as
// encoding/json checks a json.RawMessage.
//
// A reader says nothing about bytes it gives up on; a caller's fuzz target
// checks that wherever it accepts, encoding/json accepts and reads the
// same.
package fastjson

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentfootprint/agentfootprint-go/internal/jsonscan"
)

// MaxDepth bounds the nesting a Reader follows inside a raw value; deeper
// input gives up, and encoding/json has its own limit and error for it.
const MaxDepth = 256

// rawChunk is the size of the arrays raw values are copied into.
const rawChunk = 64 << 10

// Reader reads one JSON document from its start. The zero Reader reads an
// empty document; use NewReader.
type Reader struct {
	d []byte
	i int
	// raw is where raw values are copied: a few arrays for the document
	// instead of one allocation a value.
	raw []byte
	// words holds the strings that repeat (names of stages, keys,
	// kinds), made once each.
	words map[string]string
}

// NewReader returns a reader at the start of data, past any leading space.
func NewReader(data []byte) *Reader {
	r := &Reader{d: data}
	r.space()
	return r
}

// Done reports whether nothing but space is left.
func (r *Reader) Done() bool {
	r.space()
	return r.i == len(r.d)
}

// Peek is the next byte, or 0 at the end.
func (r *Reader) Peek() byte {
	if r.i < len(r.d) {
		return r.d[r.i]
	}
	return 0
}

func (r *Reader) space() { r.i = jsonscan.SkipSpace(r.d, r.i) }

// next reports whether the byte at the reader is c, and steps past it.
func (r *Reader) next(c byte) bool {
	if r.i < len(r.d) && r.d[r.i] == c {
		r.i++
		return true
	}
	return false
}

// Object reads an object of struct fields, calling member with each name,
// the reader then at the value, which member must read; member returns
// false to give up (for a name it does not know, say). Names are ASCII
// letters and digits. A name seen twice gives up: encoding/json would
// decode both into the same field, merging them.
func (r *Reader) Object(member func(name []byte) bool) bool {
	var buf [16][]byte
	seen := buf[:0]
	return r.members(r.name, func(name []byte) bool {
		for _, s := range seen {
			if string(s) == string(name) {
				return false
			}
		}
		seen = append(seen, name)
		return member(name)
	})
}

// Map reads an object whose names are a map's keys: any string without
// escapes. A key seen twice is given again, as encoding/json gives it: the
// last one wins.
func (r *Reader) Map(member func(key []byte) bool) bool {
	return r.members(r.strBytes, member)
}

func (r *Reader) members(name func() ([]byte, bool), member func(name []byte) bool) bool {
	if !r.next('{') {
		return false
	}
	r.space()
	if r.next('}') {
		return true
	}
	for {
		n, ok := name()
		if !ok {
			return false
		}
		r.space()
		if !r.next(':') {
			return false
		}
		r.space()
		if !member(n) {
			return false
		}
		r.space()
		if r.next('}') {
			return true
		}
		if !r.next(',') {
			return false
		}
		r.space()
	}
}

// name reads a member name of ASCII letters and digits.
func (r *Reader) name() ([]byte, bool) {
	if !r.next('"') {
		return nil, false
	}
	start := r.i
	for r.i < len(r.d) {
		c := r.d[r.i]
		switch {
		case c == '"':
			r.i++
			return r.d[start : r.i-1], true
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
			r.i++
		default:
			return nil, false
		}
	}
	return nil, false
}

// Array reads an array, calling elem at each element; elem returns false to
// give up.
func (r *Reader) Array(elem func() bool) bool {
	if !r.next('[') {
		return false
	}
	r.space()
	if r.next(']') {
		return true
	}
	for {
		if !elem() {
			return false
		}
		r.space()
		if r.next(']') {
			return true
		}
		if !r.next(',') {
			return false
		}
		r.space()
	}
}

// strBytes reads a string without escapes or control bytes, in UTF-8 (one
// that encoding/json reads as it stands), and returns its bytes.
func (r *Reader) strBytes() ([]byte, bool) {
	if !r.next('"') {
		return nil, false
	}
	start := r.i
	r.i = jsonscan.Plain(r.d, start)
	if r.i >= len(r.d) || r.d[r.i] != '"' {
		return nil, false
	}
	body := r.d[start:r.i]
	if !utf8.Valid(body) {
		return nil, false
	}
	r.i++
	return body, true
}

// Str reads a string without escapes, as a string of its own.
func (r *Reader) Str() (string, bool) {
	b, ok := r.strBytes()
	return string(b), ok
}

// Word is Str for a string that repeats through the document (a stage, a
// key, a kind): each is made once per reader and shared.
func (r *Reader) Word() (string, bool) {
	b, ok := r.strBytes()
	if !ok {
		return "", false
	}
	if w, ok := r.words[string(b)]; ok {
		return w, true
	}
	if r.words == nil {
		r.words = make(map[string]string, 64)
	}
	w := string(b)
	r.words[w] = w
	return w, true
}

// Words reads an array of words; [] is an empty list, not nil, as
// encoding/json reads it.
func (r *Reader) Words() ([]string, bool) {
	out := []string{}
	ok := r.Array(func() bool {
		s, ok := r.Word()
		out = append(out, s)
		return ok
	})
	return out, ok
}

// Int reads an integer without fraction or exponent that fits an int.
func (r *Reader) Int() (int, bool) {
	n, ok := r.integer(0)
	return int(n), ok
}

// Int64 reads an integer without fraction or exponent that fits an int64.
func (r *Reader) Int64() (int64, bool) { return r.integer(64) }

func (r *Reader) integer(bits int) (int64, bool) {
	start := r.i
	r.next('-')
	digits := r.i
	for r.i < len(r.d) && '0' <= r.d[r.i] && r.d[r.i] <= '9' {
		r.i++
	}
	if r.i == digits || (r.d[digits] == '0' && r.i > digits+1) {
		return 0, false
	}
	if c := r.Peek(); c == '.' || c == 'e' || c == 'E' {
		return 0, false
	}
	n, err := strconv.ParseInt(string(r.d[start:r.i]), 10, bits)
	return n, err == nil
}

// Bool reads true or false.
func (r *Reader) Bool() (bool, bool) {
	switch {
	case r.literal("true"):
		return true, true
	case r.literal("false"):
		return false, true
	}
	return false, false
}

// Raw reads one JSON value, checked as encoding/json checks it, and returns
// a copy of its bytes as they stand.
func (r *Reader) Raw() (json.RawMessage, bool) {
	start := r.i
	if !r.skip(0) {
		return nil, false
	}
	n := r.i - start
	if cap(r.raw)-len(r.raw) < n {
		r.raw = make([]byte, 0, max(n, rawChunk))
	}
	at := len(r.raw)
	r.raw = append(r.raw, r.d[start:r.i]...)
	return json.RawMessage(r.raw[at:len(r.raw):len(r.raw)]), true
}

// Span reads one JSON value, checked as Raw checks it, and returns its
// bytes in the reader's input, not copied: for a value handed straight to
// a decoder, while the input is still held.
func (r *Reader) Span() ([]byte, bool) {
	start := r.i
	if !r.skip(0) {
		return nil, false
	}
	return r.d[start:r.i:r.i], true
}

// Text reads any JSON string and returns what encoding/json decodes it to:
// escapes resolved, a \u escape of a surrogate that is not half of a pair
// read as U+FFFD, and each byte that is not part of valid UTF-8 read as
// U+FFFD too.
func (r *Reader) Text() (string, bool) {
	if r.i >= len(r.d) || r.d[r.i] != '"' {
		return "", false
	}
	start := r.i + 1
	// The usual string needs no decoding: its bytes are the text.
	if i := jsonscan.Plain(r.d, start); i < len(r.d) && r.d[i] == '"' {
		if body := r.d[start:i]; utf8.Valid(body) {
			r.i = i + 1
			return string(body), true
		}
	}
	// The decoded text is at most as long as the quoted bytes (each byte
	// that is not UTF-8 grows to three, which the builder allows for).
	end := r.i
	if !r.skipString() {
		r.i = end
		return "", false
	}
	end, r.i = r.i, end
	var b strings.Builder
	b.Grow(end - start)
	i := start
	for i < len(r.d) {
		// Copy the run up to the next quote, backslash or control byte
		// whole; bytes that start no rune become U+FFFD.
		if j := jsonscan.Plain(r.d, i); j > i {
			seg := r.d[i:j]
			if utf8.Valid(seg) {
				b.Write(seg)
			} else {
				for len(seg) > 0 {
					u, n := utf8.DecodeRune(seg)
					b.WriteRune(u)
					seg = seg[n:]
				}
			}
			i = j
			continue
		}
		switch r.d[i] {
		case '"':
			r.i = i + 1
			return b.String(), true
		case '\\':
			if i+1 >= len(r.d) {
				return "", false
			}
			if e, ok := jsonscan.Escape(r.d[i+1]); ok {
				b.WriteByte(e)
				i += 2
				continue
			}
			if r.d[i+1] != 'u' {
				return "", false
			}
			u, ok := jsonscan.Hex4(r.d[i+2:])
			if !ok {
				return "", false
			}
			i += 6
			if u >= 0xD800 && u < 0xE000 {
				if pair, ok := jsonscan.SurrogatePair(u, r.d[i:]); ok {
					u = pair
					i += 6
				} else {
					u = utf8.RuneError
				}
			}
			b.WriteRune(u)
		default: // a control byte
			return "", false
		}
	}
	return "", false
}

// skip steps over one JSON value, false when it is not valid JSON (or is
// nested deeper than MaxDepth).
func (r *Reader) skip(depth int) bool {
	if depth > MaxDepth || r.i >= len(r.d) {
		return false
	}
	switch c := r.d[r.i]; {
	case c == '{':
		r.i++
		r.space()
		if r.next('}') {
			return true
		}
		for {
			if !r.skipString() {
				return false
			}
			r.space()
			if !r.next(':') {
				return false
			}
			r.space()
			if !r.skip(depth + 1) {
				return false
			}
			r.space()
			if r.next('}') {
				return true
			}
			if !r.next(',') {
				return false
			}
			r.space()
		}
	case c == '[':
		r.i++
		r.space()
		if r.next(']') {
			return true
		}
		for {
			if !r.skip(depth + 1) {
				return false
			}
			r.space()
			if r.next(']') {
				return true
			}
			if !r.next(',') {
				return false
			}
			r.space()
		}
	case c == '"':
		return r.skipString()
	case c == '-' || ('0' <= c && c <= '9'):
		return r.skipNumber()
	case c == 't':
		return r.literal("true")
	case c == 'f':
		return r.literal("false")
	case c == 'n':
		return r.literal("null")
	}
	return false
}

func (r *Reader) literal(word string) bool {
	if len(r.d)-r.i >= len(word) && string(r.d[r.i:r.i+len(word)]) == word {
		r.i += len(word)
		return true
	}
	return false
}

// skipString steps over a string: any byte but a quote, a backslash or a
// control byte, and the escapes JSON defines (bytes that are not UTF-8 are
// valid JSON here, as encoding/json's checker takes them).
func (r *Reader) skipString() bool {
	if !r.next('"') {
		return false
	}
	for {
		r.i = jsonscan.Plain(r.d, r.i)
		if r.i >= len(r.d) {
			return false
		}
		switch r.d[r.i] {
		case '"':
			r.i++
			return true
		case '\\':
			if r.i+1 >= len(r.d) {
				return false
			}
			if _, ok := jsonscan.Escape(r.d[r.i+1]); ok {
				r.i += 2
				continue
			}
			if r.d[r.i+1] != 'u' {
				return false
			}
			if _, ok := jsonscan.Hex4(r.d[r.i+2:]); !ok {
				return false
			}
			r.i += 6
		default: // a control byte
			return false
		}
	}
}

// skipNumber steps over a number in JSON's grammar.
func (r *Reader) skipNumber() bool {
	end, problem := jsonscan.Number(r.d, r.i)
	r.i = end
	return problem == ""
}
