// Package clock is the time layer's ground floor: which zone the person lives in, which instant
// a turn happened at, and how an instant, a span or a range is spelled for a person.
//
//   - ParseZone accepts only a zone a person could have named (UTC or an IANA Area/Location
//     name in the tz database Go ships) and refuses abbreviations, bare offsets and the server's
//     own zone. Zone.Wall turns a wall time into an instant and refuses DST gaps and folds.
//   - ParseInstant reads an ISO 8601 instant under one of two profiles: Lenient for periods a
//     tool declares, Strict for values the library itself sends. It keeps the written precision.
//   - Clock is a turn's frozen now and zone, with where each came from; it round-trips through
//     JSON so a paused run resumes on the same clock. ToolTime is the part of it a tool sees.
//   - Bind returns a Presentation that renders instants, inclusive spans and half-open ranges in
//     the person's zone, following one fixed set of rules (date, 24-hour time, zone name, offset).
//   - Meaning says which range a period value (look-back or iso-range) covers at an instant;
//     Union and Difference give the pieces a read missed or added; DriftAtDispatch decides what
//     happens to a look-back that runs later than the turn's now; ISORange spells a range back.
//   - The lines (PeriodLine, CheckLine, ShiftedConclusion, HeldLine, ClockLines, ClockSentence,
//     ServedTimeLine) render the time limits from plain data and a Presentation.
//
// The package reads the wall clock only through a func the caller hands in, imports nothing of
// the project, and embeds the tz database (time/tzdata) so a host without one gives the same
// answers.
package clock

//go:generate go run gen_tznames.go
