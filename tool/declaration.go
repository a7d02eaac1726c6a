// This file holds a tool's declaration as one plain value: everything the
// tool declares, and the two functions a dispatcher runs it through. The
// dispatcher's operations on it live in package tool/toolrun.

package tool

import (
	"context"
	"encoding/json"
)

// Declaration is what a tool is, as one plain value: its name, description
// and input schema, every declaration its options made, where it was
// defined, and its three functions (the argument checks and the tool's
// func). It is built once, when the tool is defined; Tool.Declaration
// returns a copy of the struct whose slices, map and pointers are shared
// with the tool. They are read-only: the tool never changes them after
// definition, and neither may a caller (copy one before changing it). A
// dispatcher reads a Declaration through package tool/toolrun, which
// validates, checks in, executes and serves a call; a tool author rarely
// needs it.
type Declaration struct {
	// Name is the tool's name.
	Name string
	// Description says what the tool does, as the model reads it.
	Description string
	// InputSchema is the input schema as registered and served.
	InputSchema json.RawMessage
	// Validation is the validation mode (WithValidation); ModeEnforce
	// unless the tool chose another.
	Validation Mode
	// AskOrAssume holds the argument rules (WithAskOrAssume), each value
	// in its JSON form (string, bool or json.Number), or nil.
	AskOrAssume map[string]Rule
	// Period is the declared period (WithPeriod), or nil.
	Period *Period
	// ResultCeiling is the largest served text in UTF-16 units
	// (WithResultCeiling), or 0 when the tool declares no ceiling.
	ResultCeiling int
	// NarrowBy says how the model can ask for less when a result is over
	// the ceiling, or is empty.
	NarrowBy string
	// CheckIn decides per call whether the person consents first
	// (WithCheckIn), or is nil when the tool declares no check-in.
	CheckIn func(args json.RawMessage) bool
	// HiddenArguments names the arguments whose values are never printed
	// (WithHiddenArguments), or is nil.
	HiddenArguments []string
	// DefinedAt is where the tool was defined (see WithCallerSkip and
	// WithDefinitionSite); the zero Site when the runtime could not tell.
	DefinedAt Site
	// RawResults is true for a NewRaw tool: besides a Result, its func
	// may return a result object (see NewRaw).
	RawResults bool
	// Check validates arguments against the compiled input schema. It
	// returns every leaf issue, sorted and without repeats, or an error
	// when args is not JSON at all; empty args read as {}. It ignores the
	// validation mode and never modifies args.
	Check func(args json.RawMessage) ([]Issue, error)
	// CheckArgument validates one value for the top-level argument name
	// against that argument's own subschema; an argument the schema does
	// not list is one "properties" issue at "/<name>".
	CheckArgument func(name string, value any) []Issue
	// Func runs the tool's function on JSON arguments: a typed tool's
	// arguments are decoded into its input type first. A panic is not
	// recovered here, and the return value is not yet read.
	Func func(ctx context.Context, args json.RawMessage) (any, error)
}

// Declaration returns the tool's declaration. It costs a struct copy and
// no allocation, so a dispatcher may call it once per call; the slices,
// map and pointers in it are shared with the tool and read-only.
func (t *Tool) Declaration() Declaration { return t.decl }

// declare builds the tool's Declaration once, at definition, from the
// checked configuration (which no caller can reach any more).
func (t *Tool) declare() {
	d := Declaration{
		Name:            t.name,
		Description:     t.desc,
		InputSchema:     t.schema.raw,
		Validation:      t.cfg.mode,
		AskOrAssume:     t.cfg.rules,
		Period:          t.cfg.period,
		HiddenArguments: t.cfg.hidden,
		DefinedAt:       t.site,
		RawResults:      t.raw,
		Check:           t.check,
		CheckArgument:   t.checkArgument,
		Func:            t.exec,
	}
	if t.cfg.ceiling != nil {
		d.ResultCeiling, d.NarrowBy = t.cfg.ceiling.MaxChars, t.cfg.ceiling.NarrowBy
	}
	if t.cfg.checkInSet {
		d.CheckIn = t.cfg.checkIn
	}
	t.decl = d
}
