// This file holds the two ways a range is made from a look-back and spelled as an iso-range.

package clock

import (
	"fmt"
	"time"

	"github.com/agentfootprint/agentfootprint-go/clock"
)

// Lookback returns the range a look-back of d evaluated at t means: [t − d, t).
func Lookback(t time.Time, d time.Duration) clock.Range {
	return clock.Range{From: t.Add(-d), To: t}
}

// ISORange spells r in the iso-range form a tool reads, "<from>..<to>", both ends Strict
// instants in UTC and to inclusive: to is written as r.To minus one step, at the precision
// whose step that is, so the spelling means exactly [From, To) again. The step is a second
// when both ends fall on whole seconds, else a millisecond when both fall on whole
// milliseconds, else a nanosecond. An empty range or one failing Check is refused.
func ISORange(r clock.Range) (string, error) {
	if err := r.Check(); err != nil {
		return "", err
	}
	if !r.From.Before(r.To) {
		return "", fmt.Errorf("clock: the range %s to %s is empty; an iso-range cannot spell it", UTCString(r.From), UTCString(r.To))
	}
	layout, step := "2006-01-02T15:04:05Z", time.Second
	switch f, t := r.From.Nanosecond(), r.To.Nanosecond(); {
	case f == 0 && t == 0:
	case f%1e6 == 0 && t%1e6 == 0:
		layout, step = "2006-01-02T15:04:05.000Z", time.Millisecond
	default:
		layout, step = "2006-01-02T15:04:05.000000000Z", time.Nanosecond
	}
	return r.From.UTC().Format(layout) + ".." + r.To.Add(-step).UTC().Format(layout), nil
}
