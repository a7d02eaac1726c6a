// This file holds the strict instant reader used by the iso-range spelling: the module's one
// instant grammar (internal/instant) under its strict profile.

package tool

import (
	"time"

	"github.com/agentfootprint/agentfootprint-go/internal/instant"
)

// parseStrictInstant reads YYYY-MM-DDThh:mm[:ss[.f{1,9}]](Z|±hh:mm) with upper-case T and Z, a
// real calendar day, hour ≤ 23, minute and second ≤ 59 and an offset ≤ 23:59. It returns the
// moment (in UTC when the offset is zero) or the fault naming the rule the text breaks.
func parseStrictInstant(s string) (time.Time, string) {
	in, fault := instant.Parse(s, instant.Strict)
	if fault != "" {
		return time.Time{}, fault
	}
	if _, off := in.Time.Zone(); off == 0 {
		return in.Time.UTC(), ""
	}
	return in.Time, ""
}
