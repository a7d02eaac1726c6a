// This file holds the dispatcher's entry points: attach the call,
// validate, ask whether to check in, execute (with panic recovery), and
// validate-then-execute in one call.

package toolrun

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/agentfootprint/agentfootprint-go/internal/toolcall"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// WithCall returns a copy of ctx carrying c, the call the tool serves; the
// tool reads it with tool.CallFrom.
func WithCall(ctx context.Context, c tool.Call) context.Context {
	return &callContext{Context: ctx, call: c}
}

// callContext is a context carrying the call a tool serves. It costs one
// allocation per call, where context.WithValue costs two (its node and the
// boxed Call): Value hands out a pointer to the call it holds, which
// tool.CallFrom copies. Everything else is the parent's.
type callContext struct {
	context.Context
	call tool.Call
}

// Value returns the call for toolcall.Key and asks the parent otherwise.
func (c *callContext) Value(key any) any {
	if _, ok := key.(toolcall.Key); ok {
		return &c.call
	}
	return c.Context.Value(key)
}

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

// Validate checks args against d's input schema and returns the issues,
// or nil when there are none. argsErr, when not empty, is the dispatcher's
// parse error for args (a provider sent text that is not JSON); it becomes
// the single issue at pointer "", in every mode. In ModeOff nothing else is
// checked. Empty args read as {}. args is not modified.
func Validate(d tool.Declaration, args json.RawMessage, argsErr string) *Rejection {
	if argsErr != "" {
		return unparsable(d.Name, argsErr)
	}
	if d.Validation == tool.ModeOff || d.Check == nil {
		return nil
	}
	issues, err := d.Check(args)
	if err != nil {
		return unparsable(d.Name, err.Error())
	}
	return reject(d.Name, issues)
}

// CheckArgument validates one value for d's top-level argument name
// against that argument's own subschema, with the same issue shape as
// Validate (paths start at "/<name>"). It returns nil when the value fits.
func CheckArgument(d tool.Declaration, name string, value any) *Rejection {
	if d.CheckArgument == nil {
		return nil
	}
	return reject(d.Name, d.CheckArgument(name, value))
}

// NeedsCheckIn reports whether the call with these (filled) arguments must
// wait for the person's consent. A panic in the predicate is returned as
// an error, and the call should not run.
func NeedsCheckIn(d tool.Declaration, args json.RawMessage) (need bool, err error) {
	if d.CheckIn == nil {
		return false, nil
	}
	defer func() {
		if r := recover(); r != nil {
			need, err = true, fmt.Errorf("tool %q: check-in predicate panicked: %v", d.Name, r)
		}
	}()
	return d.CheckIn(bytes.Clone(args)), nil
}

// Execute runs d's func on args (already validated by the caller, or not,
// as its mode says) and reads the return value. The call (WithCall) should
// be attached to ctx. A panic in the func is recovered and returned as a
// *PanicError; an error the func returns is returned as is, so a
// tool.Pause reaches the dispatcher intact (see PauseData). args is not
// modified: the func receives a copy.
func Execute(ctx context.Context, d tool.Declaration, args json.RawMessage) (out Output, err error) {
	v, err := run(ctx, d, bytes.Clone(args))
	if err != nil {
		return Output{}, err
	}
	if d.RawResults {
		out, err = readRaw(v)
	} else {
		out, err = readTyped(v)
	}
	if err != nil {
		return Output{}, fmt.Errorf("tool %q: %w", d.Name, err)
	}
	return out, nil
}

func run(ctx context.Context, d tool.Declaration, args json.RawMessage) (v any, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = nil, &PanicError{Tool: d.Name, Value: r, Stack: debug.Stack()}
		}
	}()
	if d.Func == nil {
		return nil, fmt.Errorf("tool %q: the declaration has no func", d.Name)
	}
	return d.Func(ctx, args)
}

// Outcome is what Invoke did with one call.
type Outcome struct {
	// Rejection holds the validation issues, or nil.
	Rejection *Rejection
	// Ran reports whether the func ran. It is false only when the
	// rejection stopped the call (Rejection.Stops), and Rejection then says
	// why.
	Ran bool
	// Output is what the func produced, when it ran without error.
	Output Output
	// Err is the func's error (a tool.Pause, see PauseData; a *PanicError; an
	// arguments decode error or the tool's own), when it ran and failed.
	Err error
}

// PauseData reports whether err is (or wraps) the error of tool.Pause, and
// returns the data the tool asked to show the person. A dispatcher that
// finds one pauses the run instead of serving err to the model.
func PauseData(err error) (data any, ok bool) {
	if err == nil {
		return nil, false // the usual call: no lookup, no allocation
	}
	var p *toolcall.Pause
	if errors.As(err, &p) {
		return p.Data, true
	}
	return nil, false
}

// Invoke validates args and, unless an enforced rejection stops it,
// executes the tool: the two steps of a dispatcher without a check-in
// between them (the MCP server, a tool's own tests). In ModeWarn the
// rejection is returned and the call runs, unless the arguments were not
// JSON at all (see Rejection.Stops).
func Invoke(ctx context.Context, d tool.Declaration, args json.RawMessage, argsErr string) Outcome {
	rej := Validate(d, args, argsErr)
	if rej.Stops(d.Validation) {
		return Outcome{Rejection: rej}
	}
	out, err := Execute(ctx, d, args)
	return Outcome{Rejection: rej, Ran: true, Output: out, Err: err}
}
