// This file holds the conversion of a wall-clock time in a zone to an instant, refusing the
// wall times a daylight-saving change skips or repeats.

package tz

import (
	"fmt"
	"time"
)

// WallProblem says why a wall time names no single instant.
type WallProblem int

// The two ways a wall time fails to name one instant.
const (
	// WallGap: the zone skips this wall time (clocks moved forward over it).
	WallGap WallProblem = iota + 1
	// WallAmbiguous: the zone repeats this wall time (clocks moved back over it).
	WallAmbiguous
)

// String names the problem: "dst-gap" or "dst-fold".
func (p WallProblem) String() string {
	switch p {
	case WallGap:
		return "dst-gap"
	case WallAmbiguous:
		return "dst-fold"
	}
	return fmt.Sprintf("WallProblem(%d)", int(p))
}

// WallError refuses a wall time that falls in a DST gap or fold of its zone. The library
// never guesses which instant the person meant.
type WallError struct {
	Zone    string
	Wall    string // the wall time, YYYY-MM-DD hh:mm:ss
	Problem WallProblem
}

// Error names the wall time, the zone, and what happened to the clocks there.
func (e *WallError) Error() string {
	if e.Problem == WallAmbiguous {
		return fmt.Sprintf("clock: %s happens twice in %s (the clocks are set back over it); give the instant with its offset", e.Wall, e.Zone)
	}
	return fmt.Sprintf("clock: %s does not exist in %s (the clocks skip it); give the instant with its offset", e.Wall, e.Zone)
}

// probes are the distances from a wall time (read as UTC) at which candidate offsets are
// sampled; zone offsets stay within ±26 h of UTC, and transitions are far more than a day
// apart.
var probes = [...]time.Duration{-26 * time.Hour, -14 * time.Hour, 0, 14 * time.Hour, 26 * time.Hour}

// Wall returns the instant at which the zone's clocks show the given wall time. It refuses,
// with a *WallError, a wall time the zone skips (a DST gap) or shows twice (a DST fold).
// Fields out of range are normalized as by time.Date.
func (z Zone) Wall(year int, month time.Month, day, hour, minute, sec, nsec int) (time.Time, error) {
	loc := z.Location()
	u := time.Date(year, month, day, hour, minute, sec, nsec, time.UTC)
	var found [2]time.Time
	n := 0
	for _, p := range probes {
		_, off := u.Add(p).In(loc).Zone()
		cand := u.Add(-time.Duration(off) * time.Second)
		if _, o := cand.In(loc).Zone(); o != off {
			continue
		}
		if n > 0 && found[0].Equal(cand) || n > 1 && found[1].Equal(cand) {
			continue
		}
		if n < len(found) {
			found[n] = cand
		}
		n++
	}
	switch {
	case n == 1:
		return found[0].In(loc), nil
	case n == 0:
		return time.Time{}, &WallError{Zone: z.String(), Wall: u.Format(time.DateTime), Problem: WallGap}
	}
	return time.Time{}, &WallError{Zone: z.String(), Wall: u.Format(time.DateTime), Problem: WallAmbiguous}
}
