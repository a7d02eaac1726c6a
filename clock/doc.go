// Package clock is the time an app hands the agent for one turn: Given carries the message
// time, the person's zone name and a window the person set in the app's control (a Range).
//
// Pass it as agent.Input.Time (or agent.WithResumeTime on a resume) to an agent built with
// WithTimeLayer. Given.Check refuses, naming the field, a zone a person could not have named
// (only UTC and IANA Area/Location names such as America/New_York are accepted; abbreviations,
// bare offsets and the server's "Local" are refused) and a window whose ends are missing or
// reversed. Range is half-open, [From, To), and its JSON form is {"from","to"} in UTC.
//
// The rest of the time layer (the turn's frozen clock, how instants and spans are spelled for
// a person, the drift and range checks, the time lines the model reads) is the framework's own
// and lives in internal/clock; it still runs for every agent that arms the time layer.
package clock
