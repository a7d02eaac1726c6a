// This file holds the value tests the resolve table rests on: missing, same
// value, and how a value is printed on a row.

package inputs

import (
	"encoding/json"
	"strings"
	"unicode"

	"github.com/agentfootprint/agentfootprint-go/internal/textlen"
)

// Redacted is what a row and the answer's coverage print for a hidden value.
const Redacted = "REDACTED"

// MaxValueUnits is the longest printed value a row keeps, in UTF-16 units.
const MaxValueUnits = 80

// IsMissing reports whether argument name is missing from args: the key is
// absent, its value is JSON null, or it is a string of white space only.
func IsMissing(args map[string]json.RawMessage, name string) bool {
	raw, ok := args[name]
	if !ok {
		return true
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return false
	}
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return strings.TrimSpace(x) == ""
	}
	return false
}

// SameValue reports whether a and b are the same value for a rule. Both must
// be of the same JSON type: numbers and booleans compare by value, strings by
// their runs of letters and digits with case folded ("2h" equals "2H" and
// " 2h "), and a string without any letter or digit equals nothing.
func SameValue(a, b any) bool {
	a, b = plain(a), plain(b)
	switch x := a.(type) {
	case string:
		y, ok := b.(string)
		if !ok {
			return false
		}
		kx, ky := folded(x), folded(y)
		return kx != "" && kx == ky
	case float64:
		y, ok := b.(float64)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	}
	return false
}

// plain passes v through JSON so ints and float64s compare alike.
func plain(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var out any
	if json.Unmarshal(b, &out) != nil {
		return nil
	}
	return out
}

// folded joins the letter and digit runs of s, lower-cased, with one space.
func folded(s string) string {
	runs := strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	return strings.ToLower(strings.Join(runs, " "))
}

// Printed is how a row prints a value: a string as itself, any other scalar
// as its JSON, cut to MaxValueUnits (79 units and "…"). A hidden value
// prints as Redacted.
func Printed(v any, hidden bool) string {
	if hidden {
		return Redacted
	}
	var s string
	if str, ok := v.(string); ok {
		s = str
	} else {
		b, err := json.Marshal(v)
		if err != nil {
			return ""
		}
		s = string(b)
	}
	return cut(s)
}

// Quoted is how a sentence or the Assumed block shows a value: a string
// JSON-quoted, any other scalar bare, cut like Printed.
func Quoted(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return cut(string(b))
}

func cut(s string) string {
	if textlen.UTF16(s) <= MaxValueUnits {
		return s
	}
	return textlen.Prefix(s, MaxValueUnits-1) + "…"
}
