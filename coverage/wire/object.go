// This file holds the ordered JSON object the wire is written in, and its codec: decoding keeps
// key order and every byte of a string, encoding writes members in order without HTML escaping.

package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Object is a JSON object whose members keep their order. Minted wire values and served values
// are Objects, so that encoding them reproduces the exact key order the wire requires.
type Object []Member

// Member is one key and its value inside an [Object].
type Member struct {
	Key   string
	Value any
}

// Get returns the value under key and whether the key is present.
func (o Object) Get(key string) (any, bool) {
	for _, m := range o {
		if m.Key == key {
			return m.Value, true
		}
	}
	return nil, false
}

// Keys returns the member keys in order.
func (o Object) Keys() []string {
	out := make([]string, len(o))
	for i, m := range o {
		out[i] = m.Key
	}
	return out
}

// With returns a fresh Object where key holds v: replaced in place when present, appended
// otherwise.
func (o Object) With(key string, v any) Object {
	out := make(Object, 0, len(o)+1)
	found := false
	for _, m := range o {
		if m.Key == key {
			out = append(out, Member{Key: key, Value: v})
			found = true
			continue
		}
		out = append(out, m)
	}
	if !found {
		out = append(out, Member{Key: key, Value: v})
	}
	return out
}

// Without returns a fresh Object with key removed.
func (o Object) Without(key string) Object {
	out := make(Object, 0, len(o))
	for _, m := range o {
		if m.Key != key {
			out = append(out, m)
		}
	}
	return out
}

// MarshalJSON encodes the members in order, without HTML escaping. A string holding bytes that are
// not UTF-8 is written with those bytes as they are (see [DecodeJSON]).
func (o Object) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	if err := o.writeTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func (o Object) writeTo(buf *bytes.Buffer) error {
	buf.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			buf.WriteByte(',')
		}
		if err := writeString(buf, m.Key); err != nil {
			return err
		}
		buf.WriteByte(':')
		if err := writeValue(buf, m.Value); err != nil {
			return fmt.Errorf("coverage: encode %q: %w", m.Key, err)
		}
	}
	buf.WriteByte('}')
	return nil
}

// Marshal encodes v as compact JSON without HTML escaping, the form the package mints and the
// form canonical-notes.json documents. Strings of an [Object] or []any keep their bytes.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	if err := writeValue(&buf, v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func encodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// maxDecodeDepth bounds the nesting DecodeJSON accepts, so hostile input cannot exhaust the stack.
const maxDecodeDepth = 512

// errDecode opens every error DecodeJSON returns.
var errDecode = errors.New("coverage: not a JSON value")

// DecodeJSON decodes one JSON value, keeping object key order: objects become [Object], arrays
// []any, numbers [json.Number] of their own bytes. It refuses trailing data, a duplicate key in one
// object (which value was meant is ambiguous) and nesting deeper than 512 levels. A string holding
// bytes that are not UTF-8 keeps them: nothing is replaced, so a door or a reader can name the
// fault, and what is served stays what the tool wrote. Every error it returns says the data is not
// a JSON value it accepts and, where the decoder gave one, wraps its error (a *json.SyntaxError
// for malformed text).
func DecodeJSON(data []byte) (any, error) {
	// A document json.Valid accepts is built by the byte-keeping parser,
	// which allocates only the values (the streaming decoder allocates a
	// token, and on the way an error, per value). Anything else goes
	// through the decoder, for the position of its syntax error.
	if json.Valid(data) {
		v, err := decodeKeepingBytes(data)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", errDecode, err)
		}
		return v, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec, 0)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errDecode, err)
	}
	if _, err := dec.Token(); err == nil {
		return nil, fmt.Errorf("%w: data after the first value", errDecode)
	}
	return v, nil
}

func decodeValue(dec *json.Decoder, depth int) (any, error) {
	if depth > maxDecodeDepth {
		return nil, fmt.Errorf("nesting deeper than %d levels", maxDecodeDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			obj := Object{}
			seen := map[string]bool{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, _ := kt.(string)
				if seen[key] {
					return nil, fmt.Errorf("duplicate key %s", quoteKey(key))
				}
				seen[key] = true
				v, err := decodeValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				obj = append(obj, Member{Key: key, Value: v})
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return obj, nil
		case '[':
			arr := []any{}
			for dec.More() {
				v, err := decodeValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return arr, nil
		default:
			return nil, fmt.Errorf("unexpected %v", t)
		}
	default:
		return tok, nil
	}
}
