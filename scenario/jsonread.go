// This file holds the small readers the loader walks a decoded file with: each takes the
// field's path, so every refusal names where it happened.

package scenario

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/coverage/wire"
)

// jsonType names the JSON type of a decoded value, for messages.
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case wire.Object:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	}
	return fmt.Sprintf("%T", v)
}

func asObject(path string, v any) (wire.Object, error) {
	o, ok := v.(wire.Object)
	if !ok {
		return nil, fieldErr(path, "want an object, got %s", jsonType(v))
	}
	return o, nil
}

func asArray(path string, v any) ([]any, error) {
	a, ok := v.([]any)
	if !ok {
		return nil, fieldErr(path, "want an array, got %s", jsonType(v))
	}
	return a, nil
}

func asString(path string, v any) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", fieldErr(path, "want a string, got %s", jsonType(v))
	}
	return s, nil
}

func asBool(path string, v any) (bool, error) {
	b, ok := v.(bool)
	if !ok {
		return false, fieldErr(path, "want true or false, got %s", jsonType(v))
	}
	return b, nil
}

func asInt(path string, v any, lo int) (int, error) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, fieldErr(path, "want a whole number, got %s", jsonType(v))
	}
	i, err := n.Int64()
	if err != nil || i < int64(lo) || i > math.MaxInt32 {
		return 0, fieldErr(path, "want a whole number from %d to %d, got %s", lo, math.MaxInt32, n)
	}
	return int(i), nil
}

func asFloat(path string, v any) (float64, error) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, fieldErr(path, "want a number, got %s", jsonType(v))
	}
	f, err := n.Float64()
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, fieldErr(path, "want a finite number, got %s", n)
	}
	return f, nil
}

func asStrings(path string, v any) ([]string, error) {
	a, err := asArray(path, v)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(a))
	for i, e := range a {
		s, err := asString(index(path, i), e)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// checkKeys refuses a key of o that is not in allowed, naming the keys allowed
// and the closest one when one is close.
func checkKeys(path string, o wire.Object, allowed []string) error {
	for _, m := range o {
		if slices.Contains(allowed, m.Key) {
			continue
		}
		return fieldErr(join(path, m.Key), "unknown key %q%s; the keys here are %s",
			m.Key, didYouMean(m.Key, allowed), strings.Join(allowed, ", "))
	}
	return nil
}

// oneOf returns the single key of o found among kinds, refusing none or several.
func oneOf(path string, o wire.Object, kinds []string) (string, error) {
	var found []string
	for _, k := range kinds {
		if _, ok := o.Get(k); ok {
			found = append(found, k)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return "", fieldErr(path, "give exactly one of %s", strings.Join(kinds, ", "))
	}
	return "", fieldErr(join(path, found[1]), "cannot be given together with %q; give exactly one of %s",
		found[0], strings.Join(kinds, ", "))
}

// enumWord checks word against the allowed words, suggesting the closest.
func enumWord(path, what, word string, allowed []string) error {
	if slices.Contains(allowed, word) {
		return nil
	}
	return fieldErr(path, "unknown %s %q%s; use one of %s", what, word, didYouMean(word, allowed), strings.Join(allowed, ", "))
}

// rawJSON re-encodes a decoded value (key order kept).
func rawJSON(v any) (json.RawMessage, error) {
	return wire.Marshal(v)
}
