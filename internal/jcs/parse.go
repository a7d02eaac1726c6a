// This file holds the strict JSON reader: it accepts exactly RFC 8259 JSON and refuses
// what would let two readers see different documents in the same bytes (duplicate member
// names, invalid UTF-8, lone surrogate escapes), so a hash over the parsed value speaks for
// the bytes a person reads.

package jcs

import (
	"encoding/json"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/agentfootprint/agentfootprint-go/internal/jsonscan"
)

// MaxDepth bounds the nesting of arrays and objects Parse accepts.
const MaxDepth = 512

// SyntaxError reports where and why Parse refused its input.
type SyntaxError struct {
	// Offset is the byte offset of the problem.
	Offset int
	// Reason says what was wrong.
	Reason string
}

// Error implements the error interface.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("jcs: invalid JSON at byte %d: %s", e.Offset, e.Reason)
}

// Parse reads one JSON value (surrounding whitespace allowed) into nil, bool, string,
// json.Number, []any and map[string]any. It refuses duplicate member names, invalid UTF-8,
// escaped lone surrogates, nesting deeper than MaxDepth, and anything after the value.
// Numbers keep their literal text.
func Parse(data []byte) (any, error) {
	p := parser{data: data}
	p.skipSpace()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos != len(p.data) {
		return nil, p.errorf("unexpected %q after the value", p.data[p.pos])
	}
	return v, nil
}

type parser struct {
	data []byte
	pos  int
}

func (p *parser) errorf(format string, args ...any) error {
	return &SyntaxError{Offset: p.pos, Reason: fmt.Sprintf(format, args...)}
}

func (p *parser) skipSpace() { p.pos = jsonscan.SkipSpace(p.data, p.pos) }

func (p *parser) value(depth int) (any, error) {
	if p.pos >= len(p.data) {
		return nil, p.errorf("unexpected end of input")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(depth + 1)
	case c == '[':
		return p.array(depth + 1)
	case c == '"':
		return p.str()
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	default:
		for _, lit := range [...]struct {
			word string
			v    any
		}{{"true", true}, {"false", false}, {"null", nil}} {
			if len(p.data)-p.pos >= len(lit.word) && string(p.data[p.pos:p.pos+len(lit.word)]) == lit.word {
				p.pos += len(lit.word)
				return lit.v, nil
			}
		}
		return nil, p.errorf("unexpected %q", c)
	}
}

func (p *parser) object(depth int) (any, error) {
	if depth > MaxDepth {
		return nil, p.errorf("nesting deeper than %d", MaxDepth)
	}
	p.pos++ // {
	m := map[string]any{}
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return m, nil
	}
	for {
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return nil, p.errorf("expected a member name")
		}
		at := p.pos
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		if _, dup := m[k]; dup {
			return nil, &SyntaxError{Offset: at, Reason: fmt.Sprintf("duplicate member name %q", k)}
		}
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return nil, p.errorf("expected ':' after member name %q", k)
		}
		p.pos++
		p.skipSpace()
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		m[k] = v
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil, p.errorf("unexpected end of input in an object")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			return m, nil
		default:
			return nil, p.errorf("expected ',' or '}' in an object")
		}
	}
}

func (p *parser) array(depth int) (any, error) {
	if depth > MaxDepth {
		return nil, p.errorf("nesting deeper than %d", MaxDepth)
	}
	p.pos++ // [
	a := []any{}
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return a, nil
	}
	for {
		p.skipSpace()
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		a = append(a, v)
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil, p.errorf("unexpected end of input in an array")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return a, nil
		default:
			return nil, p.errorf("expected ',' or ']' in an array")
		}
	}
}

func (p *parser) number() (any, error) {
	start := p.pos
	end, problem := jsonscan.Number(p.data, p.pos)
	p.pos = end
	if problem != "" {
		return nil, p.errorf("%s", problem)
	}
	return json.Number(p.data[start:end]), nil
}

func (p *parser) str() (string, error) {
	p.pos++ // opening quote
	d := p.data
	start := p.pos
	// Fast path: no escapes.
	for p.pos < len(d) {
		c := d[p.pos]
		if c == '"' {
			s := d[start:p.pos]
			if !utf8.Valid(s) {
				return "", &SyntaxError{Offset: start, Reason: "string is not valid UTF-8"}
			}
			p.pos++
			return string(s), nil
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			return "", p.errorf("unescaped control character 0x%02x in a string", c)
		}
		p.pos++
	}
	buf := append([]byte(nil), d[start:p.pos]...)
	for p.pos < len(d) {
		c := d[p.pos]
		switch {
		case c == '"':
			if !utf8.Valid(buf) {
				return "", &SyntaxError{Offset: start, Reason: "string is not valid UTF-8"}
			}
			p.pos++
			return string(buf), nil
		case c < 0x20:
			return "", p.errorf("unescaped control character 0x%02x in a string", c)
		case c != '\\':
			buf = append(buf, c)
			p.pos++
			continue
		}
		if p.pos+1 >= len(d) {
			return "", p.errorf("unexpected end of input in an escape")
		}
		e := d[p.pos+1]
		p.pos += 2
		if e != 'u' {
			c, ok := jsonscan.Escape(e)
			if !ok {
				return "", p.errorf("unknown escape \\%c", e)
			}
			buf = append(buf, c)
			continue
		}
		r, err := p.hex4()
		if err != nil {
			return "", err
		}
		if utf16.IsSurrogate(r) {
			pair, ok := jsonscan.SurrogatePair(r, d[p.pos:])
			if !ok {
				return "", p.loneSurrogate(r)
			}
			r = pair
			p.pos += 6
		}
		buf = utf8.AppendRune(buf, r)
	}
	return "", p.errorf("unexpected end of input in a string")
}

func (p *parser) hex4() (rune, error) {
	r, ok := jsonscan.Hex4(p.data[p.pos:])
	if !ok {
		return 0, p.errorf("\\u needs four hex digits")
	}
	p.pos += 4
	return r, nil
}

// loneSurrogate builds the error for the surrogate escape r (p.pos just after it) that no low
// surrogate escape completes: at the offset after r when no \u escape follows or r is itself a
// low surrogate, at the following escape's digits when they are not four hex digits, and after
// that escape when it holds something other than a low surrogate.
func (p *parser) loneSurrogate(r rune) error {
	d := p.data
	if r >= 0xDC00 || p.pos+1 >= len(d) || d[p.pos] != '\\' || d[p.pos+1] != 'u' {
		return p.errorf("lone surrogate \\u%04x", r)
	}
	p.pos += 2
	if _, err := p.hex4(); err != nil {
		return err
	}
	return p.errorf("lone surrogate \\u%04x", r)
}
