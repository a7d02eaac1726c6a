// Package clock (internal/clock) is the time layer's ground floor, kept inside the module: which
// instant a turn happened at, and how an instant, a span or a range is spelled for a person.
// What an app hands a turn (Given, with its window as a Range) is the public package clock,
// imported here under its own name, so clock.Given and clock.Range below are the public types.
// Zone names are validated by internal/tz. Importers that also use the public package name
// this one timelayer. The package keeps the name clock because the record names its types
// (the turnClock key is a clock.Clock), and moving the package must not change a record byte.
//
//   - ParseInstant reads an ISO 8601 instant under one of two profiles: Lenient for periods a
//     tool declares, Strict for values the library itself sends. It keeps the written precision.
//   - Clock is a turn's frozen now and zone, with where each came from; it round-trips through
//     JSON so a paused run resumes on the same clock. ToolTime is the part of it a tool sees.
//   - Bind returns a Presentation that renders instants, inclusive spans and half-open ranges in
//     the person's zone, following one fixed set of rules (date, 24-hour time, zone name, offset).
//   - Meaning says which range a period value (look-back or iso-range) covers at an instant
//     (Lookback builds one from a duration);
//     Union and Difference give the pieces a read missed or added; DriftAtDispatch decides what
//     happens to a look-back that runs later than the turn's now; ISORange spells a range back.
//   - The lines (PeriodLine, CheckLine, ShiftedConclusion, HeldLine, ClockLines, ClockSentence,
//     ServedTimeLine) render the time limits from plain data and a Presentation.
//
// The package reads the wall clock only through a func the caller hands in and imports only
// the public clock, internal/tz and internal/instant.
package clock
