// Package clock is the time layer's ground floor: which zone the person lives in, which instant
// a turn happened at, and how an instant, a span or a range is spelled for a person.
//
// It holds five ideas, one file each:
//
//   - ParseZone accepts only a zone a person could have named (UTC or an IANA Area/Location
//     name in the tz database Go ships) and refuses abbreviations, bare offsets and the server's
//     own zone.
//   - ParseInstant reads an ISO 8601 instant under one of two profiles: Lenient for periods a
//     tool declares, Strict for values the library itself sends.
//   - Clock is a turn's frozen "now" and zone, with where each came from; it round-trips through
//     JSON so a paused run resumes on the same clock. ToolTime is the slice of it a tool sees.
//   - Bind returns a Presentation that renders instants, inclusive spans and half-open ranges in
//     the person's zone, following one fixed set of rules (date, 24-hour time, zone name, offset).
//   - DriftAtDispatch decides what happens to a look-back that runs later than the turn's now.
//
// The package reads the wall clock only through a func the caller hands in, imports nothing of
// the project, and embeds the tz database so results do not depend on the host.
package clock

//go:generate go run gen_tznames.go
