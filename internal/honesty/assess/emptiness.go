// This file holds the emptiness reader: what a call's recorded result says about whether it found
// anything, the one reading both declared-absent and empty-undeclared rest on.

package assess

import (
	"bytes"
	"encoding/json"

	"github.com/agentfootprint/agentfootprint-go/coverage/wire"
	"github.com/agentfootprint/agentfootprint-go/internal/coverread"
)

// emptiness is what a recorded result says about having found anything.
type emptiness string

// The readings.
const (
	// emptyDeclared: the result says, through an envelope, that it found nothing.
	emptyDeclared emptiness = "empty-declared"
	// emptyUndeclared: a bare empty list of rows, with nothing saying what was searched.
	emptyUndeclared emptiness = "empty-undeclared"
	// nonEmpty: the result holds rows.
	nonEmpty emptiness = "non-empty"
	// unreadable: text, numbers, or an object the reader cannot tell rows in.
	unreadable emptiness = "unknown"
)

// readEmptiness reads a recorded result. JSON text is decoded first; text that is not JSON reads
// unknown. An absence is empty-declared; a coverage ledger reads as its result, where an empty
// list (or any emptiness inside the boundary) is empty-declared; a described result is non-empty
// when any of its data lists holds something and empty-declared otherwise; a top-level list, or
// the list under rowsAt when the app named that key, is empty-undeclared or non-empty. Anything
// else is unknown. Text the framework served after the tool's value (a note) is not part of it.
func readEmptiness(result any, rowsAt string) emptiness {
	v, ok := decoded(result)
	if !ok {
		return unreadable
	}
	return readValue(v, rowsAt, 0)
}

// readResult reads a served tool result: its emptiness and whether it is a coverage envelope. The
// shape sniff answers when the result's outline decides it; any other result is decoded.
func readResult(content, rowsAt string) (emptiness, bool) {
	if reading, envelope, ok := sniffResult(content, rowsAt); ok {
		return reading, envelope
	}
	v, ok := decoded(content)
	if !ok {
		return unreadable, false
	}
	return readValue(v, rowsAt, 0), isEnvelope(v)
}

// decoded returns a recorded result as a JSON value: text and bytes are decoded, and anything
// else is taken as already decoded. Text that cannot hold a list or an object is not decoded at
// all, since no reading depends on it.
func decoded(result any) (any, bool) {
	var data []byte
	switch t := result.(type) {
	case string:
		data = []byte(t)
	case []byte:
		data = t
	default:
		return result, true
	}
	i := 0
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	if i == len(data) || (data[i] != '[' && data[i] != '{') {
		return nil, false
	}
	// The framework may serve text after the tool's value (the inputs layer's note on a
	// filled argument), so only the first JSON value is the result. The usual served text is
	// that one value alone, which needs no decoder to cut it out.
	first := bytes.TrimRight(data[i:], " \t\n\r")
	if !json.Valid(first) {
		dec := json.NewDecoder(bytes.NewReader(data[i:]))
		var raw json.RawMessage
		if dec.Decode(&raw) != nil {
			return nil, false
		}
		first = raw
	}
	v, err := wire.DecodeJSON(first)
	if err != nil {
		return nil, false
	}
	return v, true
}

func readValue(v any, rowsAt string, depth int) emptiness {
	if depth > 64 {
		return unreadable
	}
	if _, ok := coverread.ReadAbsence(v); ok {
		return emptyDeclared
	}
	if _, ok := coverread.ReadDeclaredAbsence(v); ok {
		return emptyDeclared
	}
	if o, ok := coverread.ReadLedger(v); ok {
		r, _ := o.Get("result")
		inner := readValue(r, rowsAt, depth+1)
		if inner == emptyUndeclared {
			return emptyDeclared
		}
		return inner
	}
	if o, ok := coverread.ReadSemantics(v); ok {
		for _, k := range []string{"series", "facts", "edges"} {
			if l, ok := listOf(get(o, k)); ok && len(l) > 0 {
				return nonEmpty
			}
		}
		return emptyDeclared
	}
	if l, ok := listOf(v); ok {
		if len(l) == 0 {
			return emptyUndeclared
		}
		return nonEmpty
	}
	if rowsAt != "" {
		if l, ok := listOf(get(v, rowsAt)); ok {
			if len(l) == 0 {
				return emptyUndeclared
			}
			return nonEmpty
		}
	}
	return unreadable
}

// isEnvelope reports whether a decoded result is one of the coverage envelopes.
func isEnvelope(v any) bool {
	if _, ok := coverread.ReadAbsence(v); ok {
		return true
	}
	if _, ok := coverread.ReadDeclaredAbsence(v); ok {
		return true
	}
	if _, ok := coverread.ReadLedger(v); ok {
		return true
	}
	if _, ok := coverread.ReadDeclaredLedger(v); ok {
		return true
	}
	_, ok := coverread.ReadSemantics(v)
	return ok
}

func listOf(v any) ([]any, bool) {
	l, ok := v.([]any)
	return l, ok
}

// get reads a member of a decoded object in either form.
func get(v any, key string) any {
	switch t := v.(type) {
	case wire.Object:
		x, _ := t.Get(key)
		return x
	case map[string]any:
		return t[key]
	}
	return nil
}
