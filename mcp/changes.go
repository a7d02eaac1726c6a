// This file holds the tool list's change tracking: what appeared, vanished
// or changed between two lists of one server.

package mcp

import (
	"bytes"
	"encoding/json"
	"slices"
)

// ChangeKind says how a server's tool differs from the previous list.
type ChangeKind string

// The kinds of change between two lists.
const (
	ToolAppeared      ChangeKind = "appeared"
	ToolVanished      ChangeKind = "vanished"
	ToolSchemaChanged ChangeKind = "schema-changed"
	// ToolDescriptionChanged is a tool whose description or annotations
	// changed while its schema did not.
	ToolDescriptionChanged ChangeKind = "description-changed"
)

func (k ChangeKind) phrase() string {
	switch k {
	case ToolVanished:
		return "is no longer offered"
	case ToolSchemaChanged:
		return "changed its input schema"
	case ToolDescriptionChanged:
		return "changed its description"
	}
	return string(k)
}

// Change is one difference between two lists of a server's tools.
type Change struct {
	Tool string     `json:"tool"`
	Kind ChangeKind `json:"kind"`
}

// shape is what the client remembers of one listed tool.
type shape struct {
	schema json.RawMessage
	desc   json.RawMessage // description and annotations, encoded
}

// diff returns the changes from prev to next, sorted by tool name then kind.
// A first list (prev nil) reports nothing.
func diff(prev, next map[string]shape) []Change {
	if prev == nil {
		return nil
	}
	var out []Change
	for name, n := range next {
		p, ok := prev[name]
		switch {
		case !ok:
			out = append(out, Change{name, ToolAppeared})
		case !bytes.Equal(p.schema, n.schema):
			out = append(out, Change{name, ToolSchemaChanged})
		case !bytes.Equal(p.desc, n.desc):
			out = append(out, Change{name, ToolDescriptionChanged})
		}
	}
	for name := range prev {
		if _, ok := next[name]; !ok {
			out = append(out, Change{name, ToolVanished})
		}
	}
	slices.SortFunc(out, func(a, b Change) int {
		if a.Tool != b.Tool {
			if a.Tool < b.Tool {
				return -1
			}
			return 1
		}
		if a.Kind < b.Kind {
			return -1
		} else if a.Kind > b.Kind {
			return 1
		}
		return 0
	})
	return out
}
