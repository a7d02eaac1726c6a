// This file holds the JSON writer that records each unit's byte span while
// it encodes a request body.

package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/agentfootprint/agentfootprint-go/llm"
)

// Writer builds a JSON document into B and records spans as it goes.
// Commas between members and elements are written automatically.
type Writer struct {
	B     []byte
	Spans []llm.Span
	stack []int // per open container: number of members written so far
}

// NewWriter returns a Writer with room for n bytes.
func NewWriter(n int) *Writer { return &Writer{B: make([]byte, 0, n)} }

// pre writes the comma before an array element.
func (w *Writer) pre() {
	if n := len(w.stack); n > 0 && w.stack[n-1] >= 0 {
		if w.stack[n-1] > 0 {
			w.B = append(w.B, ',')
		}
		w.stack[n-1]++
	}
}

// BeginObject opens an object (as a value).
func (w *Writer) BeginObject() {
	w.value()
	w.B = append(w.B, '{')
	w.stack = append(w.stack, 0)
}

// EndObject closes the innermost object.
func (w *Writer) EndObject() {
	w.stack = w.stack[:len(w.stack)-1]
	w.B = append(w.B, '}')
}

// BeginArray opens an array (as a value).
func (w *Writer) BeginArray() {
	w.value()
	w.B = append(w.B, '[')
	w.stack = append(w.stack, 0)
}

// EndArray closes the innermost array.
func (w *Writer) EndArray() {
	w.stack = w.stack[:len(w.stack)-1]
	w.B = append(w.B, ']')
}

// Key writes an object member name; the next value call writes its value.
func (w *Writer) Key(k string) {
	n := len(w.stack) - 1
	if w.stack[n] > 0 {
		w.B = append(w.B, ',')
	}
	w.stack[n]++
	w.B = append(w.B, '"')
	w.B = appendEscaped(w.B, k)
	w.B = append(w.B, '"', ':')
	// The value that follows must not write a comma: mark with -1 until it lands.
	w.stack = append(w.stack, -1)
}

// value ends a member value started by Key, or writes an element comma.
func (w *Writer) value() {
	if n := len(w.stack); n > 0 && w.stack[n-1] == -1 {
		w.stack = w.stack[:n-1]
		return
	}
	w.pre()
}

// String writes s as a JSON string and returns the byte range of its
// escaped characters, without the quotes.
func (w *Writer) String(s string) (start, end int) {
	w.value()
	w.B = append(w.B, '"')
	start = len(w.B)
	w.B = appendEscaped(w.B, s)
	end = len(w.B)
	w.B = append(w.B, '"')
	return start, end
}

// StringSpan writes s and records its span under unit (nothing when unit is empty).
func (w *Writer) StringSpan(s, unit string, kind llm.SpanKind) {
	a, b := w.String(s)
	if unit != "" {
		w.Spans = append(w.Spans, llm.Span{Unit: unit, Kind: kind, Start: a, End: b})
	}
}

// Segments writes the segments as one JSON string joined by llm.SystemJoiner,
// recording a span per segment that has a unit. Empty segments are skipped.
func (w *Writer) Segments(segs []llm.Segment) {
	w.value()
	w.B = append(w.B, '"')
	n := 0
	for _, s := range segs {
		if s.Text == "" {
			continue
		}
		if n > 0 {
			w.B = appendEscaped(w.B, llm.SystemJoiner)
		}
		n++
		a := len(w.B)
		w.B = appendEscaped(w.B, s.Text)
		if s.Unit != "" {
			k := s.Kind
			if k == "" {
				k = llm.SpanSystemUnit
			}
			w.Spans = append(w.Spans, llm.Span{Unit: s.Unit, Kind: k, Start: a, End: len(w.B)})
		}
	}
	w.B = append(w.B, '"')
}

// Int writes an integer.
func (w *Writer) Int(v int64) { w.value(); w.B = strconv.AppendInt(w.B, v, 10) }

// Float writes a number the way encoding/json would.
func (w *Writer) Float(v float64) {
	w.value()
	b, err := json.Marshal(v)
	if err != nil { // NaN or Inf: not representable; send 0 rather than corrupt JSON
		b = []byte("0")
	}
	w.B = append(w.B, b...)
}

// Bool writes true or false.
func (w *Writer) Bool(v bool) { w.value(); w.B = strconv.AppendBool(w.B, v) }

// Raw writes already-encoded JSON, compacted. It refuses text that is not JSON.
func (w *Writer) Raw(v []byte) error {
	if !json.Valid(v) {
		return fmt.Errorf("not valid JSON: %.40q", v)
	}
	w.value()
	var buf bytes.Buffer
	_ = json.Compact(&buf, v) // valid input: cannot fail
	w.B = append(w.B, buf.Bytes()...)
	return nil
}

// Mark returns the current offset, for spans that cover whole values.
func (w *Writer) Mark() int {
	return len(w.B)
}

// AddSpan records a span.
func (w *Writer) AddSpan(unit string, kind llm.SpanKind, start, end int) {
	w.Spans = append(w.Spans, llm.Span{Unit: unit, Kind: kind, Start: start, End: end})
}

// Elem prepares the writer for a whole-object element whose span the
// caller wants to record: it writes the separating comma now and returns
// the offset where the element starts. The next BeginObject writes no comma.
func (w *Writer) Elem() int {
	n := len(w.stack) - 1
	if w.stack[n] > 0 {
		w.B = append(w.B, ',')
	}
	w.stack[n]++
	w.stack = append(w.stack, -1)
	return len(w.B)
}

const hexDigits = "0123456789abcdef"

// appendEscaped appends s escaped as the inside of a JSON string. Invalid
// UTF-8 becomes U+FFFD; U+2028 and U+2029 are escaped. Each character's
// escape depends on that character only, so segments stay contiguous.
func appendEscaped(b []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	return append(b, s[start:]...)
}
