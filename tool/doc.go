// Package tool defines the tools an agent's model may call: how they are
// made, how their arguments are checked, what their results mean, and what
// they declare to the agent's honesty layers (the optional checks that
// judge what a result covered, which arguments were assumed rather than
// given, and which time window a call read).
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
// # What a tool is, and who runs it
//
// A *Tool has a Name and a Declaration: one plain value holding its
// description, input schema and every declaration below, built once when
// the tool is defined and shared read-only. An agent, the MCP server, or a
// tool's own test runs a tool through package tool/toolrun, which validates
// the arguments, asks for a check-in, executes the func (recovering a
// panic) and reads what it returned:
//
//	o := toolrun.Invoke(ctx, search.Declaration(), json.RawMessage(`{"service":"checkout"}`), "")
//
// A tool that returns Pause(data) as its error pauses the run for a person.
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
//     (lookback "2h", signed-lookback "-2h", iso-range "A..B"); the
//     declared values are checked against that spelling at definition.
//   - WithResultCeiling: a result over the ceiling is refused whole, never
//     cut, and the model is told how to ask for less.
//   - WithCheckIn: the person consents before execute, for the calls the
//     predicate picks.
//   - WithHiddenArguments: values the record and the answer never print.
//
// WithValidation chooses what argument issues do: stop the call (enforce,
// the default), only report them (warn), or skip validation (off).
//
// Each is checked against the input schema when the tool is defined.
//
// # While running
//
// CallFrom(ctx) tells a tool which call it serves (id, iteration, turn, a
// Progress reporter and, under the time layer, the turn's clock); outside a
// dispatched call it returns an error rather than a silent zero value.
//
// The package imports nothing of the agent: a tool author's package can
// depend on it alone.
package tool
