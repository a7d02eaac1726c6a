// This file holds how validated arguments are decoded into a typed tool's
// input, including integers a model spelled as 2.0 or 1e2.

package tool

import (
	"cmp"
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// decodeInto unmarshals args into dst. JSON Schema counts 2.0 and 1e2 as
// integers, and models do write them, but encoding/json refuses them for
// Go integer fields; when that is the only trouble, such numbers are
// rewritten in plain integer form and the decode is tried once more.
func decodeInto(args []byte, dst any) error {
	err := json.Unmarshal(args, dst)
	var typeErr *json.UnmarshalTypeError
	if err == nil || !errors.As(err, &typeErr) || !strings.HasPrefix(typeErr.Value, "number") {
		return err
	}
	doc, derr := decodeJSON(args)
	if derr != nil {
		return err
	}
	if !integralNumbers(&doc) {
		return err
	}
	fixed, merr := json.Marshal(doc)
	if merr != nil {
		return err
	}
	if err2 := json.Unmarshal(fixed, dst); err2 != nil {
		return err
	}
	return nil
}

// integralNumbers rewrites, in place, every json.Number that holds an
// integer in a non-integer spelling, and reports whether any changed.
func integralNumbers(v *any) bool {
	changed := false
	switch x := (*v).(type) {
	case map[string]any:
		for k, e := range x {
			if integralNumbers(&e) {
				x[k] = e
				changed = true
			}
		}
	case []any:
		for i := range x {
			if integralNumbers(&x[i]) {
				changed = true
			}
		}
	case json.Number:
		if s, ok := integerSpelling(string(x)); ok && s != string(x) {
			*v = json.Number(s)
			changed = true
		}
	}
	return changed
}

// integerSpelling returns the plain integer form of a JSON number text that
// holds an integer within ±2^63, or false. Exponents are bounded before any
// exact arithmetic, so a hostile "1e-999999" costs nothing.
func integerSpelling(s string) (string, bool) {
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		if strings.Trim(s[:i], "-0.") == "" {
			return "0", true // zero times any power of ten
		}
		sign, exp := "", s[i+1:]
		if exp != "" && (exp[0] == '+' || exp[0] == '-') {
			sign, exp = exp[:1], exp[1:]
		}
		exp = strings.TrimLeft(exp, "0")
		if len(exp) > 3 {
			return "", false
		}
		s = s[:i] + "e" + sign + cmp.Or(exp, "0")
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<63 {
		return "", false
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok || !r.IsInt() {
		return "", false
	}
	return r.Num().String(), true
}
