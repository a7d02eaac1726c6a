// This file holds the package's reading of instants: ISO 8601 with a zone, the module's one
// grammar (internal/instant) under its lenient profile, compared at nanosecond precision.

package engine

import (
	"time"

	"github.com/agentfootprint/agentfootprint-go/internal/instant"
)

// ParseInstant reads s as an instant of the package's one profile:
// YYYY-MM-DDTHH:MM[:SS[.F{1,9}]] followed by Z or ±HH:MM. It accepts a lower-case t or z, -00:00,
// offsets up to ±23:59, second 60 (read as the next minute's :00) and years 0000 to 9999 in the
// proleptic Gregorian calendar. It refuses a missing zone, a bare date, a space for T, unpadded
// fields, impossible dates and times, a ten-digit fraction and a fraction without seconds. The
// returned time is in UTC; the string itself is never rewritten anywhere.
func ParseInstant(s string) (time.Time, bool) {
	t, fault := parseInstant(s)
	return t, fault == ""
}

// parseInstant is ParseInstant that says what is wrong: the fault is "" for an instant, and
// otherwise names the first rule s breaks (a zone missing, an impossible day, an hour of 24, a
// fraction too long, …), so a refusal points at the real mistake. The grammar is the module's one
// (internal/instant), read under its lenient profile.
func parseInstant(s string) (time.Time, string) {
	in, fault := instant.Parse(s, instant.Lenient)
	if fault != "" {
		return time.Time{}, fault
	}
	return in.Time.UTC(), ""
}
