// This file holds the CLI's streaming JSON writer for decoded values: a large tool result is
// written to the output as it is walked, instead of being marshalled into one buffer (and,
// for every nested object, into another) and then indented into a third.

package main

import (
	"bufio"
	"bytes"
	"encoding/json"

	"github.com/agentfootprint/agentfootprint-go/coverage/wire"
)

// jsonOut writes values as wire.Marshal does (key order kept, no HTML escaping), compact
// or indented by two spaces as json.Indent would.
type jsonOut struct {
	w      *bufio.Writer
	indent bool
}

func newJSONOut(w *bufio.Writer, indent bool) *jsonOut {
	return &jsonOut{w: w, indent: indent}
}

// write writes v; the bufio.Writer keeps the first write error, which Flush returns.
func (o *jsonOut) write(v any, depth int) error {
	switch t := v.(type) {
	case wire.Object:
		if len(t) == 0 {
			o.w.WriteString("{}")
			return nil
		}
		o.w.WriteByte('{')
		for i, m := range t {
			if i > 0 {
				o.w.WriteByte(',')
			}
			o.newline(depth + 1)
			if err := o.scalarOf(m.Key); err != nil {
				return err
			}
			o.w.WriteByte(':')
			if o.indent {
				o.w.WriteByte(' ')
			}
			if err := o.write(m.Value, depth+1); err != nil {
				return err
			}
		}
		o.newline(depth)
		o.w.WriteByte('}')
	case []any:
		if len(t) == 0 {
			o.w.WriteString("[]")
			return nil
		}
		o.w.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				o.w.WriteByte(',')
			}
			o.newline(depth + 1)
			if err := o.write(e, depth+1); err != nil {
				return err
			}
		}
		o.newline(depth)
		o.w.WriteByte(']')
	case string, json.Number, bool, nil:
		return o.scalarOf(t)
	default:
		// Anything else (a report row, a problem) is small: marshal it whole, then lay it out.
		b, err := wire.Marshal(t)
		if err != nil {
			return err
		}
		if !o.indent {
			o.w.Write(b)
			return nil
		}
		var pretty bytes.Buffer
		if err := json.Indent(&pretty, b, "", "  "); err != nil {
			return err
		}
		for i, line := range bytes.Split(pretty.Bytes(), []byte("\n")) {
			if i > 0 {
				o.newline(depth)
			}
			o.w.Write(line)
		}
	}
	return nil
}

// scalarOf writes one string, number, boolean or null as wire.Marshal
// does: a string that is not UTF-8 keeps its bytes (the reader names the
// fault; the output never repairs it).
func (o *jsonOut) scalarOf(v any) error {
	b, err := wire.Marshal(v)
	if err != nil {
		return err
	}
	o.w.Write(b)
	return nil
}

// newline starts a new indented line, when indenting.
func (o *jsonOut) newline(depth int) {
	if !o.indent {
		return
	}
	o.w.WriteByte('\n')
	for range depth {
		o.w.WriteString("  ")
	}
}
