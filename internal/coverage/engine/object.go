// This file holds the ordered JSON object the package reads and writes, and the helpers that
// look at untrusted JSON-shaped values without trusting their Go types.

package engine

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"sort"
	"strconv"
)

func encodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
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
			out[i] = Member{Key: k, Value: t[k]}
		}
		return out, true
	}
	return nil, false
}

var (
	objectType = reflect.TypeFor[Object]()
	memberType = reflect.TypeFor[Member]()
)

// namedObject views a value of a named type whose underlying type is that of [Object] (the
// coverage package's Envelope) as the Object it is.
func namedObject(v any) (Object, bool) {
	t := reflect.TypeOf(v)
	if t == nil || t.Kind() != reflect.Slice || t.Elem() != memberType || t == objectType {
		return nil, false
	}
	o := reflect.ValueOf(v).Convert(objectType).Interface().(Object)
	if o == nil {
		return nil, false
	}
	return o, true
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
				out = append(out, Member{Key: k, Value: x})
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
			out = append(out, Member{Key: k, Value: t[k]})
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
	if rv.Type().Elem().Kind() == reflect.Uint8 || rv.Type().Elem() == memberType {
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

// NumberOf reads a JSON number of any Go numeric type (json.Number included); non-finite values
// are not numbers.
func NumberOf(v any) (float64, bool) { return numberOf(v) }
