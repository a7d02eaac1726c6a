// Replacing a tool's function while keeping everything it declares: how a
// replay or an experiment serves recorded results under the same tool.

package toolrun

import (
	"context"
	"encoding/json"

	"github.com/agentfootprint/agentfootprint-go/tool"
)

// WithExecute returns a tool like t whose function is fn. Everything else
// is kept: name, description, input schema, validation mode, every
// declaration (ask-or-assume rules, period, result ceiling, check-in,
// hidden arguments) and the definition site, so a record made with the copy
// reads like one made with t. fn receives the arguments as JSON ({} when
// the model sent none; text that is not JSON never reaches it) and must not
// modify them; its return value is read the way t's own function's would
// be (a tool.Result, or, for a NewRaw tool, a result object as well). A nil
// fn is refused with a *tool.DefinitionError. When t's site is unknown, the
// copy's is the line that called WithExecute.
func WithExecute(t *tool.Tool, fn func(ctx context.Context, args json.RawMessage) (any, error)) (*tool.Tool, error) {
	d := t.Declaration()
	opts := []tool.Option{tool.WithValidation(d.Validation)}
	if d.AskOrAssume != nil {
		opts = append(opts, tool.WithAskOrAssume(d.AskOrAssume))
	}
	if d.Period != nil {
		opts = append(opts, tool.WithPeriod(*d.Period))
	}
	if d.ResultCeiling > 0 {
		opts = append(opts, tool.WithResultCeiling(d.ResultCeiling, d.NarrowBy))
	}
	if d.CheckIn != nil {
		opts = append(opts, tool.WithCheckIn(d.CheckIn))
	}
	if len(d.HiddenArguments) > 0 {
		opts = append(opts, tool.WithHiddenArguments(d.HiddenArguments...))
	}
	if d.DefinedAt.File != "" {
		opts = append(opts, tool.WithDefinitionSite(d.DefinedAt))
	} else {
		opts = append(opts, tool.WithCallerSkip(1))
	}
	run := fn
	if fn != nil && !d.RawResults {
		// A typed tool's return value is data unless it is a Result: keep
		// it from being read as a NewRaw result object.
		run = func(ctx context.Context, args json.RawMessage) (any, error) {
			v, err := fn(ctx, args)
			switch v.(type) {
			case tool.Result, *tool.Result:
				return v, err
			}
			return tool.Result{Content: v}, err
		}
	}
	var fnArg func(context.Context, json.RawMessage) (any, error)
	if fn != nil {
		fnArg = run
	}
	return tool.NewRaw(d.Name, d.Description, d.InputSchema, fnArg, opts...)
}
