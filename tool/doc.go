// Package tool defines the tools an agent's model may call: how they are
// made, how their arguments are checked, what their results mean, and what
// they declare to the honesty layers.
//
// # Making a tool
//
// New builds a tool from a typed func. The input schema is inferred from
// the input type with github.com/google/jsonschema-go, where a field's whole
// `jsonschema:"…"` tag is its description:
//
//	type SearchIn struct {
//		Service string `json:"service" jsonschema:"the service whose logs to search"`
//		Window  string `json:"window,omitempty" jsonschema:"how far back to look, such as 2h"`
//	}
//	search, err := tool.New("search_logs", "Search a service's error logs.",
//		func(ctx context.Context, in SearchIn) ([]string, error) { … })
//
// NewRaw builds one from a JSON schema given as is (an MCP tool's; any
// draft from 4 to 2020-12, self-contained: external references are never
// loaded), and
// Must panics on a definition error for package-level tools. Every
// definition error is a *DefinitionError naming the tool, the refused field
// and the fix.
//
// # Calling a tool (the dispatcher's side)
//
// The dispatcher resolves the tool by Name, then:
//
//	rej := t.Validate(args, argsErr)   // every leaf issue, with JSON pointers
//	if rej != nil && t.ValidationMode() != tool.ModeWarn {
//		serve(rej.Text()) // status invalid; the tool does not run
//	}
//	need, _ := t.NeedsCheckIn(args)    // consent before execute
//	out, err := t.Execute(tool.WithCall(ctx, call), args)
//
// Execute recovers a panic into *PanicError; a tool that returns tool.Pause(data) yields a
// *PauseRequest the dispatcher finds with errors.As.
//
// # Results
//
// A tool's return value is data, served byte for byte (a string as is,
// anything else as JSON), unless it is a Result carrying a Status, or, for
// raw tools, a result object with keys among content, effects and status.
// The seven statuses are typed constants (StatusSuccess … StatusAbsent).
//
// # Declarations
//
// Declarations are never inferred, and a tool without them behaves exactly
// as if they did not exist:
//
//   - WithAskOrAssume: per argument, a default to assume or a question to
//     ask when the model leaves it missing.
//   - WithPeriod: which argument sets the time window and its spelling
//     (lookback "2h", signed-lookback "-2h", iso-range "A..B"). The one
//     grammar lives here: ParsePeriod, ParsesUnder, ConvertSpelling.
//   - WithResultCeiling: a result over the ceiling is refused whole, never
//     cut (Ceiling.Check, ceilingRefusal).
//   - WithCheckIn / CheckInAlways: the person consents before execute.
//   - WithHiddenArguments: values the record and the answer never print.
//
// WithValidation chooses what argument issues do: stop the call (enforce,
// the default), only report them (warn), or skip validation (off).
//
// Each is checked against the input schema when the tool is defined;
// AssertDeclarations runs the same check for tools defined elsewhere.
//
// # While running
//
// CallFrom(ctx) tells a tool which call it serves (id, iteration, turn, a
// Progress reporter and, under the time layer, the turn's clock); outside a
// dispatched call it returns ErrNoCall rather than a silent zero value.
//
// The package imports nothing of the agent: a tool author's package can
// depend on it alone.
package tool
