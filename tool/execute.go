// This file holds the dispatcher's entry points: validate, execute (with
// panic recovery), and both in one call.

package tool

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
)

// DecodeError is returned by Execute when the arguments of a typed tool do
// not decode into its input type. Validation normally prevents it; it
// appears in ModeWarn or ModeOff, or when the schema is looser than the
// type.
type DecodeError struct {
	Tool string // the tool's name
	Type string // the Go input type
	Err  error  // the encoding/json error
}

// Error names the tool, the type and the decoding failure.
func (e *DecodeError) Error() string {
	return fmt.Sprintf("tool %q: the arguments do not decode into %s: %v", e.Tool, e.Type, e.Err)
}

// Unwrap returns the encoding/json error.
func (e *DecodeError) Unwrap() error { return e.Err }

// PanicError is returned by Execute when the tool's func panicked. The run
// goes on: the dispatcher serves Error() to the model as the result.
type PanicError struct {
	Tool  string // the tool's name
	Value any    // what the func panicked with
	// Stack is the goroutine stack at the panic, for logs; it is not
	// meant to be served.
	Stack []byte
}

// Error names the tool and the panic value; it is what the model reads.
func (e *PanicError) Error() string {
	return fmt.Sprintf("tool %q panicked: %v", e.Tool, e.Value)
}

// Validate checks args against the tool's input schema and returns the
// issues, or nil when there are none. argsErr, when not empty, is the
// dispatcher's parse error for args (a provider sent text that is not
// JSON); it becomes the single issue at pointer "", in every mode. In
// ModeOff nothing else is checked.
// Empty args read as {}. args is not modified.
func (t *Tool) Validate(args json.RawMessage, argsErr string) *Rejection {
	if t.cfg.mode == ModeOff {
		if argsErr != "" {
			return unparsable(t.name, argsErr)
		}
		return nil
	}
	return validateArgs(t.name, t.schema, args, argsErr)
}

// Execute runs the tool's func on args (already validated by the caller,
// or not, as its mode says) and reads the return value. The call context
// (see WithCall) should be attached to ctx. A panic in the func is
// recovered and returned as a *PanicError; an error the func returns is
// returned as is, so a *PauseRequest reaches the dispatcher intact
// (errors.As). args is not modified: the func receives a copy.
func (t *Tool) Execute(ctx context.Context, args json.RawMessage) (out Output, err error) {
	v, err := t.run(ctx, bytes.Clone(args))
	if err != nil {
		return Output{}, err
	}
	out, err = t.readOut(v)
	if err != nil {
		return Output{}, fmt.Errorf("tool %q: %w", t.name, err)
	}
	return out, nil
}

func (t *Tool) run(ctx context.Context, args json.RawMessage) (v any, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = nil, &PanicError{Tool: t.name, Value: r, Stack: debug.Stack()}
		}
	}()
	return t.exec(ctx, args)
}

// Outcome is what Invoke did with one call.
type Outcome struct {
	// Rejection holds the validation issues, or nil.
	Rejection *Rejection
	// Ran reports whether the func ran. It is false when an enforced
	// rejection stopped the call.
	Ran bool
	// Output is what the func produced, when it ran without error.
	Output Output
	// Err is the func's error (a *PauseRequest, a *PanicError, a
	// *DecodeError or the tool's own), when it ran and failed.
	Err error
}

// Enforced reports whether issues stopped the call.
func (o Outcome) Enforced() bool { return o.Rejection != nil && !o.Ran }

// Paused returns the pause request the func raised, if any.
func (o Outcome) Paused() (*PauseRequest, bool) {
	var pr *PauseRequest
	if errors.As(o.Err, &pr) {
		return pr, true
	}
	return nil, false
}

// Invoke validates args and, unless an enforced rejection stops it,
// executes the tool: the two steps of a dispatcher without a check-in
// between them (the MCP server, a tool's own tests). In ModeWarn the
// rejection is returned and the call runs, unless the arguments were not
// JSON at all (see Rejection.Stops).
func (t *Tool) Invoke(ctx context.Context, args json.RawMessage, argsErr string) Outcome {
	rej := t.Validate(args, argsErr)
	if rej.Stops(t.cfg.mode) {
		return Outcome{Rejection: rej}
	}
	out, err := t.Execute(ctx, args)
	return Outcome{Rejection: rej, Ran: true, Output: out, Err: err}
}
