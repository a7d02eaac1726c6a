// This file holds the byte-keeping half of the JSON codec of [Object]: reading a document whose strings are
// not all valid UTF-8 without replacing a byte, and writing such strings back as they came. The
// standard library replaces each invalid byte with U+FFFD in both directions, which would change
// a tool's value without a word.

package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/agentfootprint/agentfootprint-go/internal/jsonscan"
	"github.com/agentfootprint/agentfootprint-go/internal/textlen"
)

// rawParser reads a document that json.Valid has already accepted, so it trusts the syntax and
// only builds values: objects as [Object], arrays as []any, numbers as [json.Number] of their own
// bytes, and strings with every byte that is not part of an escape kept as written.
type rawParser struct {
	data []byte
	pos  int
	seen map[string]string // short strings met so far (see intern)
}

func (p *rawParser) skipSpace() { p.pos = jsonscan.SkipSpace(p.data, p.pos) }

func (p *rawParser) value(depth int) (any, error) {
	if depth > maxDecodeDepth {
		return nil, fmt.Errorf("nesting deeper than %d levels", maxDecodeDepth)
	}
	p.skipSpace()
	if p.pos >= len(p.data) {
		return nil, errors.New("unexpected end of JSON input")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		p.pos++
		obj := Object{}
		seen := map[string]bool{}
		for {
			p.skipSpace()
			if p.data[p.pos] == '}' {
				p.pos++
				return obj, nil
			}
			if p.data[p.pos] == ',' {
				p.pos++
				p.skipSpace()
			}
			key := p.str()
			if seen[key] {
				return nil, fmt.Errorf("duplicate key %s", quoteKey(key))
			}
			seen[key] = true
			p.skipSpace()
			p.pos++ // the colon
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			obj = append(obj, Member{Key: key, Value: v})
		}
	case c == '[':
		p.pos++
		arr := []any{}
		for {
			p.skipSpace()
			if p.data[p.pos] == ']' {
				p.pos++
				return arr, nil
			}
			if p.data[p.pos] == ',' {
				p.pos++
			}
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
	case c == '"':
		return p.str(), nil
	case c == 't':
		p.pos += 4
		return true, nil
	case c == 'f':
		p.pos += 5
		return false, nil
	case c == 'n':
		p.pos += 4
		return nil, nil
	default:
		start := p.pos
		end, problem := jsonscan.Number(p.data, p.pos)
		if problem != "" { // json.Valid let no such number through
			return nil, errors.New(problem)
		}
		p.pos = end
		return json.Number(p.data[start:end]), nil
	}
}

// str reads one string token at p.pos, decoding its escapes and keeping every other byte.
func (p *rawParser) str() string {
	p.pos++ // the opening quote
	// Most strings have no escape: they are their bytes, copied once. A
	// key seen before is the same string again.
	if end := bytes.IndexAny(p.data[p.pos:], "\"\\"); end >= 0 && p.data[p.pos+end] == '"' {
		raw := p.data[p.pos : p.pos+end]
		p.pos += end + 1
		return p.intern(raw)
	}
	var b []byte
	for {
		c := p.data[p.pos]
		switch c {
		case '"':
			p.pos++
			return string(b)
		case '\\':
			e := p.data[p.pos+1]
			p.pos += 2
			if e != 'u' {
				c, _ := jsonscan.Escape(e) // json.Valid let no other letter through
				b = append(b, c)
				continue
			}
			r, _ := jsonscan.Hex4(p.data[p.pos:])
			p.pos += 4
			// A surrogate that no low surrogate escape completes reads as
			// U+FFFD, as in encoding/json.
			if utf16.IsSurrogate(r) {
				if pair, ok := jsonscan.SurrogatePair(r, p.data[p.pos:]); ok {
					r = pair
					p.pos += 6
				} else {
					r = utf8.RuneError
				}
			}
			b = utf8.AppendRune(b, r)
		default:
			b = append(b, c)
			p.pos++
		}
	}
}

// intern returns raw as a string, the same string for the same short bytes
// (object keys repeat in every row of a listing), so a large document holds
// each key once.
func (p *rawParser) intern(raw []byte) string {
	if len(raw) > 32 {
		return string(raw)
	}
	if s, ok := p.seen[string(raw)]; ok {
		return s
	}
	s := string(raw)
	if p.seen == nil {
		p.seen = map[string]string{}
	}
	if len(p.seen) < 4096 {
		p.seen[s] = s
	}
	return s
}

// decodeKeepingBytes decodes a syntactically valid document whose strings may hold bytes that are
// not UTF-8.
func decodeKeepingBytes(data []byte) (any, error) {
	p := &rawParser{data: data}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos != len(data) {
		return nil, errors.New("data after the first value")
	}
	return v, nil
}

// writeString writes s as a JSON string. Valid UTF-8 goes through the standard encoder (no HTML
// escaping); a string holding bytes that are not UTF-8 is written with those bytes as they are,
// escaping only what JSON requires, so the tool's value is not changed on the way out.
func writeString(buf *bytes.Buffer, s string) error {
	if utf8.ValidString(s) {
		enc, err := encodeJSON(s)
		if err != nil {
			return err
		}
		buf.Write(enc)
		return nil
	}
	buf.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			buf.WriteByte('\\')
			buf.WriteByte(c)
		case c < 0x20:
			fmt.Fprintf(buf, `\u%04x`, c)
		default:
			buf.WriteByte(c)
		}
	}
	buf.WriteByte('"')
	return nil
}

// writeValue writes the JSON-shaped values this package builds (Object, []any, strings) itself, so
// their strings keep their bytes, and hands anything else to the standard encoder.
func writeValue(buf *bytes.Buffer, v any) error {
	switch t := v.(type) {
	case string:
		return writeString(buf, t)
	case Object:
		return t.writeTo(buf)
	case []any:
		if t == nil {
			buf.WriteString("null")
			return nil
		}
		buf.WriteByte('[')
		for i, x := range t {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeValue(buf, x); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
		return nil
	}
	enc, err := encodeJSON(v)
	if err != nil {
		return err
	}
	buf.Write(enc)
	return nil
}

// quoteKey renders a key for an error message the way the coverage doors quote a string: its JSON
// encoding, cut after 200 bytes with an ellipsis, then clipped to 60 UTF-16 units (57 and an
// ellipsis past that), so a hostile key cannot bloat an error.
func quoteKey(k string) string {
	var s string
	if len(k) > 200 {
		cut := 200
		for cut > 0 && !utf8.RuneStart(k[cut]) {
			cut--
		}
		enc, _ := encodeJSON(k[:cut])
		s = string(enc[:len(enc)-1]) + "…"
	} else {
		enc, _ := encodeJSON(k)
		s = string(enc)
	}
	if textlen.UTF16(s) > 60 {
		return textlen.Prefix(s, 57) + "…"
	}
	return s
}
