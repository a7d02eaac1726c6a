// Replacing a tool's function while keeping everything it declares: how a
// replay or an experiment serves recorded results under the same tool.

package tool

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
)

// WithExecute returns a copy of t whose function is fn. Everything else is
// kept: name, description, input schema, validation mode, every
// declaration (ask-or-assume rules, period, result ceiling, check-in,
// hidden arguments) and the definition site, so a record made with the
// copy reads like one made with t. fn receives the arguments as JSON ({}
// when the model sent none; text that is not JSON never reaches it) and
// must not modify them; its return value is read the way t's own
// function's would be (a Result, or, for a NewRaw tool, a result object as
// well). WithExecute refuses a nil fn with a *DefinitionError.
func (t *Tool) WithExecute(fn func(ctx context.Context, args json.RawMessage) (any, error)) (*Tool, error) {
	if fn == nil {
		return nil, refuse(t.name, "fn", "the replacement function is nil", "pass the func that should answer the tool's calls")
	}
	name := t.name
	cp := *t
	cp.exec = func(ctx context.Context, args json.RawMessage) (any, error) {
		if len(bytes.TrimSpace(args)) == 0 {
			args = json.RawMessage("{}")
		} else if !json.Valid(args) {
			return nil, &DecodeError{Tool: name, Type: "JSON", Err: errors.New("the arguments are not valid JSON")}
		}
		return fn(ctx, args)
	}
	return &cp, nil
}
