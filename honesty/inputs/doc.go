// Package inputs holds what a person sees and sends when a run pauses because a tool's ask
// rule (tool.WithAskOrAssume) left an argument for the person to choose.
//
// The paused Result's PauseInfo (Kind "arguments") carries a PauseData: one question for the
// whole batch, one typed Field per distinct argument, and a context naming the tools and
// arguments (never the model's values). The app shows it and resumes with a Reply as JSON,
// {"requestId", "values": {fieldID: value}}. A reply that does not fit an argument's schema is
// asked again (at most three times per field); the paused turn's state keeps the open
// question as an Ask.
//
// Everything else of the inputs layer (resolving rules, building and re-checking questions,
// the argument rows and sentences) is the framework's own, in internal/honesty/inputs, and
// runs for every agent built with WithInputsLayer.
package inputs
