// This file holds the ordered JSON object the package reads and writes, and the helpers that
// look at untrusted JSON-shaped values without trusting their Go types.

package coverage

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
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

// with returns a fresh Object where key holds v: replaced in place when present, appended
// otherwise.
func (o Object) with(key string, v any) Object {
	out := make(Object, 0, len(o)+1)
	found := false
	for _, m := range o {
		if m.Key == key {
			out = append(out, Member{key, v})
			found = true
			continue
		}
		out = append(out, m)
	}
	if !found {
		out = append(out, Member{key, v})
	}
	return out
}

// without returns a fresh Object with key removed.
func (o Object) without(key string) Object {
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

// ErrDecode is wrapped by every error [DecodeJSON] returns.
var ErrDecode = errors.New("coverage: not a JSON value")

// DecodeJSON decodes one JSON value, keeping object key order: objects become [Object], arrays
// []any, numbers [json.Number] of their own bytes. It refuses trailing data, a duplicate key in one
// object (which value was meant is ambiguous) and nesting deeper than 512 levels. A string holding
// bytes that are not UTF-8 keeps them: nothing is replaced, so a door or a reader can name the
// fault, and what is served stays what the tool wrote.
func DecodeJSON(data []byte) (any, error) {
	// A document json.Valid accepts is built by the byte-keeping parser,
	// which allocates only the values (the streaming decoder allocates a
	// token, and on the way an error, per value). Anything else goes
	// through the decoder, for the position of its syntax error.
	if json.Valid(data) {
		v, err := decodeKeepingBytes(data)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrDecode, err)
		}
		return v, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec, 0)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrDecode, err)
	}
	if _, err := dec.Token(); err == nil {
		return nil, fmt.Errorf("%w: data after the first value", ErrDecode)
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
					return nil, fmt.Errorf("duplicate key %s", clipQuote(key))
				}
				seen[key] = true
				v, err := decodeValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				obj = append(obj, Member{key, v})
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

// plainObject views v as an ordered object when it is an [Object] or a map[string]any. A map's
// keys come in sorted order. Envelope types are not plain objects here; see asEnvelopeObject.
func plainObject(v any) (Object, bool) {
	switch t := v.(type) {
	case Object:
		if t == nil {
			return Object{}, true
		}
		return t, true
	case map[string]any:
		if t == nil {
			return nil, false
		}
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := make(Object, len(keys))
		for i, k := range keys {
			out[i] = Member{k, t[k]}
		}
		return out, true
	}
	return nil, false
}

// orderedView is plainObject for a map, but with the known keys first in the given order and the
// remaining keys sorted: the served order for a Go map, which has none of its own.
func orderedView(v any, order []string) (Object, bool) {
	switch t := v.(type) {
	case map[string]any:
		if t == nil {
			return nil, false
		}
		out := make(Object, 0, len(t))
		known := map[string]bool{}
		for _, k := range order {
			known[k] = true
			if x, ok := t[k]; ok {
				out = append(out, Member{k, x})
			}
		}
		var rest []string
		for k := range t {
			if !known[k] {
				rest = append(rest, k)
			}
		}
		sort.Strings(rest)
		for _, k := range rest {
			out = append(out, Member{k, t[k]})
		}
		return out, true
	}
	return plainObject(v)
}

// asArray views v as a JSON array: any Go slice or array except bytes (JSON text is data).
func asArray(v any) ([]any, bool) {
	switch t := v.(type) {
	case nil:
		return nil, false
	case []any:
		if t == nil {
			return nil, false
		}
		return t, true
	case []byte, json.RawMessage, string, Object:
		return nil, false
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
		return nil, false
	}
	if rv.Kind() == reflect.Slice && rv.IsNil() {
		return nil, false
	}
	if rv.Type().Elem().Kind() == reflect.Uint8 {
		return nil, false
	}
	out := make([]any, rv.Len())
	for i := range out {
		out[i] = rv.Index(i).Interface()
	}
	return out, true
}

// numberOf reads a JSON number of any Go numeric type; non-finite values are not numbers.
func numberOf(v any) (float64, bool) {
	var f float64
	switch t := v.(type) {
	case json.Number:
		x, err := strconv.ParseFloat(string(t), 64)
		if err != nil {
			return 0, false
		}
		f = x
	case float64:
		f = t
	case float32:
		f = float64(t)
	case int:
		f = float64(t)
	case int8:
		f = float64(t)
	case int16:
		f = float64(t)
	case int32:
		f = float64(t)
	case int64:
		f = float64(t)
	case uint:
		f = float64(t)
	case uint8:
		f = float64(t)
	case uint16:
		f = float64(t)
	case uint32:
		f = float64(t)
	case uint64:
		f = float64(t)
	default:
		return 0, false
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// holderID identifies a map, Object or pointer so the serve door can notice a cycle.
func holderID(v any) (uintptr, bool) {
	switch t := v.(type) {
	case Object:
		if len(t) == 0 {
			return 0, false
		}
		return reflect.ValueOf(t).Pointer(), true
	case map[string]any:
		if t == nil {
			return 0, false
		}
		return reflect.ValueOf(t).Pointer(), true
	case *Absence, *Covered, *Semantics:
		p := reflect.ValueOf(t).Pointer()
		return p, p != 0
	}
	return 0, false
}

// freshJSON returns a detached copy of an arbitrary Go value as JSON-shaped data, by encoding it
// and decoding the bytes in order. A value that cannot be encoded (a cycle, a channel) fails.
func freshJSON(v any) (any, error) {
	b, err := encodeJSON(v)
	if err != nil {
		return nil, err
	}
	return DecodeJSON(b)
}
