// This file holds the refusal a door returns, the problem a reader records, and the helpers every
// message uses: field paths, UTF-16 lengths, clipped quotes and the unknown-key wording.

package engine

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	cw "github.com/agentfootprint/agentfootprint-go/coverage/wire"
	"github.com/agentfootprint/agentfootprint-go/internal/textlen"
)

// RefusedPrefix starts the text of every refusal, whichever language minted it.
const RefusedPrefix = cw.RefusedPrefix

// Refusal is the error a door returns for a malformed declaration. Field is the dot path of the
// fault ("checked[0].short", "period.queried.from"), spelled as the door reads it: camelCase at
// the author doors, snake_case on the wire; the empty string means the declaration as a whole.
// Its text is [RefusedPrefix] followed by Message, so a refusal returned from a tool reads the same
// to the model whichever language minted it.
type Refusal struct {
	Field   string
	Message string
}

// Error returns "refused: " followed by the message.
func (r *Refusal) Error() string { return RefusedPrefix + r.Message }

// Problem returns the refusal as a [Problem].
func (r *Refusal) Problem() Problem { return Problem{Field: r.Field, Message: r.Message} }

// Problem is one fault found in a declaration: where it is, and what is wrong. Readers record it
// when they leave a foreign declaration off the record; doors turn it into a [*Refusal].
type Problem struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

func (p *Problem) refusal() *Refusal {
	if p == nil {
		return nil
	}
	return &Refusal{Field: p.Field, Message: p.Message}
}

func problemf(field, format string, args ...any) *Problem {
	return &Problem{Field: field, Message: fmt.Sprintf(format, args...)}
}

// join builds a dot path.
func join(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}

// index builds an indexed path.
func index(parent string, i int) string { return parent + "[" + strconv.Itoa(i) + "]" }

// rootName names a path in a message; the root reads as "the declaration".
func rootName(path string) string {
	if path == "" {
		return "the declaration"
	}
	return "`" + path + "`"
}

const (
	quoteMax  = 60
	quoteKeep = 57
)

// clipQuote renders a value's JSON encoding for a message, clipped to 60 UTF-16 units (57 and an
// ellipsis past that). It never encodes more of a huge or deeply nested value than it shows.
func clipQuote(v any) string {
	var b strings.Builder
	writeBounded(&b, v, 0)
	s := b.String()
	if textlen.UTF16(s) > quoteMax {
		return textlen.Prefix(s, quoteKeep) + "…"
	}
	return s
}

const quoteBudget = 256

func writeBounded(b *strings.Builder, v any, depth int) {
	if b.Len() > quoteBudget {
		return
	}
	if depth > 6 {
		b.WriteString("…")
		return
	}
	switch t := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(t))
	case string:
		if len(t) > 200 {
			cut := 200
			for cut > 0 && !utf8.RuneStart(t[cut]) {
				cut--
			}
			t = t[:cut]
			enc, _ := encodeJSON(t)
			b.Write(enc[:len(enc)-1])
			b.WriteString("…")
			return
		}
		enc, _ := encodeJSON(t)
		b.Write(enc)
	case json.Number:
		b.WriteString(clipRaw(string(t)))
	case []byte:
		b.WriteString("JSON text")
	case json.RawMessage:
		b.WriteString("JSON text")
	default:
		if f, ok := numberOf(v); ok {
			b.WriteString(strconv.FormatFloat(f, 'g', -1, 64))
			return
		}
		if o, ok := plainObject(v); ok {
			b.WriteByte('{')
			for i, m := range o {
				if b.Len() > quoteBudget {
					break
				}
				if i > 0 {
					b.WriteByte(',')
				}
				enc, _ := encodeJSON(textlen.Prefix(m.Key, 80))
				b.Write(enc)
				b.WriteByte(':')
				writeBounded(b, m.Value, depth+1)
			}
			b.WriteByte('}')
			return
		}
		if a, ok := asArray(v); ok {
			b.WriteByte('[')
			for i, x := range a {
				if b.Len() > quoteBudget {
					break
				}
				if i > 0 {
					b.WriteByte(',')
				}
				writeBounded(b, x, depth+1)
			}
			b.WriteByte(']')
			return
		}
		fmt.Fprintf(b, "a Go %T", v)
	}
}

func clipRaw(s string) string {
	if len(s) > 80 {
		return s[:80]
	}
	return s
}

// typeWord names the JSON type of a value for a message.
func typeWord(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case []byte, json.RawMessage:
		return "JSON text"
	}
	if _, ok := numberOf(v); ok {
		return "a number"
	}
	if _, ok := plainObject(v); ok {
		return "an object"
	}
	if _, ok := asArray(v); ok {
		return "an array"
	}
	return fmt.Sprintf("a Go %T", v)
}

// fold reduces a key for spelling-slip detection: '_' and '-' removed, lower-cased.
func fold(k string) string {
	k = strings.ReplaceAll(k, "_", "")
	k = strings.ReplaceAll(k, "-", "")
	return strings.ToLower(k)
}

// suggestKey returns the first known key, other than k itself, whose fold equals k's.
func suggestKey(k string, known []string) (string, bool) {
	f := fold(k)
	for _, c := range known {
		if c != k && fold(c) == f {
			return c, true
		}
	}
	return "", false
}

// firstUnknown returns the first key of o not in known (source order; a map was sorted by
// plainObject).
func firstUnknown(o Object, known []string) (string, bool) {
	for _, m := range o {
		found := false
		for _, k := range known {
			if m.Key == k {
				found = true
				break
			}
		}
		if !found {
			return m.Key, true
		}
	}
	return "", false
}

func backtickList(keys []string) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = "`" + k + "`"
	}
	return strings.Join(parts, ", ")
}

// unknownKeyProblem words the refusal of an unknown key at parent, listing the valid fields and
// naming the key meant when the slip is only spelling.
func unknownKeyProblem(parent, key string, known []string) *Problem {
	field := join(parent, clipKey(key))
	msg := fmt.Sprintf("%s is not a field %s accepts; the fields are %s", rootName(field), placeName(parent), backtickList(known))
	if s, ok := suggestKey(key, known); ok {
		msg += fmt.Sprintf(" (write `%s`, the spelling this door reads)", s)
	}
	return &Problem{Field: field, Message: msg}
}

func placeName(parent string) string {
	if parent == "" {
		return "this declaration"
	}
	return "`" + parent + "`"
}

// clipKey keeps a hostile key from bloating a field path.
func clipKey(k string) string {
	if textlen.UTF16(k) > quoteMax {
		return textlen.Prefix(k, quoteKeep) + "…"
	}
	return k
}

// checkUnknown returns the unknown-key problem for the first key of o outside known.
func checkUnknown(o Object, parent string, known []string) *Problem {
	if k, ok := firstUnknown(o, known); ok {
		return unknownKeyProblem(parent, k, known)
	}
	return nil
}

// isBlank reports whether s is empty after trimming.
func isBlank(s string) bool { return strings.TrimSpace(s) == "" }

// nonBlankString reads v as a string that is not blank.
func nonBlankString(v any) (string, bool) {
	s, ok := v.(string)
	if !ok || isBlank(s) {
		return "", false
	}
	return s, true
}
