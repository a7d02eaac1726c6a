// This file holds the two functions a tool hands its dispatcher through
// its Declaration: the argument check, and the decode error a typed tool's
// func reports.

package tool

import (
	"encoding/json"
	"fmt"
)

// decodeError is what a typed tool's func returns when the arguments do
// not decode into its input type. Validation normally prevents it; it
// appears in ModeWarn or ModeOff, or when the schema is looser than the
// type. The encoding/json error stays reachable through errors.As.
type decodeError struct {
	Tool string // the tool's name
	Type string // the Go input type
	Err  error  // the encoding/json error
}

// Error names the tool, the type and the decoding failure.
func (e *decodeError) Error() string {
	return fmt.Sprintf("tool %q: the arguments do not decode into %s: %v", e.Tool, e.Type, e.Err)
}

// Unwrap returns the encoding/json error.
func (e *decodeError) Unwrap() error { return e.Err }

// check is Declaration.Check: every leaf issue of args against the
// compiled schema, sorted, without repeats and uncapped, or the parse error
// when args is not JSON. Empty args read as {}.
func (t *Tool) check(args json.RawMessage) ([]Issue, error) {
	return validateArgs(t.schema, args)
}
