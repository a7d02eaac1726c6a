// This file holds how a command tells a file of the kind it takes from another kind of file:
// `audit verify` judges exports only, and names what it was given otherwise.

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// errNotExport is wrapped by isSegmentFile's refusals.
var errNotExport = errors.New("not an audit export (`agentfootprint audit export RUN -o FILE` writes one)")

// isSegmentFile reports whether data is meant as an audit segment: a JSON object with a
// header or records member. Anything that reads as an export, even a damaged one, passes, so
// that the verifier judges it (a damaged export is an invalid chain, exit 1); what is plainly
// another kind of file is refused here (exit 2), naming the kind when it can.
func isSegmentFile(data []byte) error {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		if bytes.Contains(data, []byte(`"header"`)) && bytes.Contains(data, []byte(`"records"`)) {
			return nil
		}
		return fmt.Errorf("%w: it is not JSON", errNotExport)
	}
	if _, ok := top["header"]; ok {
		return nil
	}
	if _, ok := top["records"]; ok {
		return nil
	}
	var format string
	if raw, ok := top["format"]; ok && json.Unmarshal(raw, &format) == nil && format != "" {
		return fmt.Errorf("%w: it is a file of format %s", errNotExport, format)
	}
	for _, k := range []string{"turns", "replies", "tools", "agent"} {
		if _, ok := top[k]; ok {
			return fmt.Errorf("%w: it looks like a scenario file", errNotExport)
		}
	}
	return fmt.Errorf("%w: it has neither a header nor records", errNotExport)
}
