// The test helper that runs a call through validation and execution, as the
// agent's dispatcher does.

package tool

import (
	"context"
	"encoding/json"
	"errors"
)

// outcome is what invoke did with one call.
type outcome struct {
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

// enforced reports whether issues stopped the call.
func (o outcome) enforced() bool { return o.Rejection != nil && !o.Ran }

// paused returns the pause request the func raised, if any.
func (o outcome) paused() (*PauseRequest, bool) {
	var pr *PauseRequest
	if errors.As(o.Err, &pr) {
		return pr, true
	}
	return nil, false
}

// invoke validates args and, unless an enforced rejection stops it,
// executes the tool, as a dispatcher without a check-in between the two
// steps does. In ModeWarn the rejection is returned and the call runs,
// unless the arguments were not JSON at all.
func (t *Tool) invoke(ctx context.Context, args json.RawMessage, argsErr string) outcome {
	rej := t.Validate(args, argsErr)
	if rej.stops(t.cfg.mode) {
		return outcome{Rejection: rej}
	}
	out, err := t.Execute(ctx, args)
	return outcome{Rejection: rej, Ran: true, Output: out, Err: err}
}
