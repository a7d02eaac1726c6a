// This file holds Range, the half-open stretch of time [From, To), and its JSON form.

package clock

import (
	"encoding/json"
	"fmt"
	"time"
)

// Range is a half-open stretch of time [From, To): From is inside, To is the first instant
// after it. Asked, read, missing and extra windows are ranges; a window the person set in the
// app's control is one too. Its JSON form is {"from","to"} spelled in UTC.
type Range struct {
	From time.Time
	To   time.Time
}

// Lookback returns the range a look-back of d evaluated at t means: [t − d, t).
func Lookback(t time.Time, d time.Duration) Range {
	return Range{From: t.Add(-d), To: t}
}

// Shifted returns r moved later by d (earlier when d is negative).
func (r Range) Shifted(d time.Duration) Range {
	return Range{From: r.From.Add(d), To: r.To.Add(d)}
}

// Duration returns To − From.
func (r Range) Duration() time.Duration { return r.To.Sub(r.From) }

// Check refuses a range with a zero end or with From after To. An empty range (From equal to
// To) is allowed.
func (r Range) Check() error {
	switch {
	case r.From.IsZero():
		return fmt.Errorf("clock: range.from is missing")
	case r.To.IsZero():
		return fmt.Errorf("clock: range.to is missing")
	case r.From.After(r.To):
		return fmt.Errorf("clock: range.from %s is after range.to %s", UTCString(r.From), UTCString(r.To))
	}
	return nil
}

// UTC returns r with both ends in UTC and without monotonic readings, as rows record it.
func (r Range) UTC() Range { return Range{From: r.From.UTC(), To: r.To.UTC()} }

// rangeJSON is the wire form of a Range.
type rangeJSON struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// MarshalJSON writes {"from","to"} with both ends in UTC. A range that fails Check is refused.
func (r Range) MarshalJSON() ([]byte, error) {
	if err := r.Check(); err != nil {
		return nil, err
	}
	return json.Marshal(rangeJSON{From: UTCString(r.From), To: UTCString(r.To)})
}

// UnmarshalJSON reads {"from","to"}; each end must be a Strict instant and from may not be
// after to.
func (r *Range) UnmarshalJSON(b []byte) error {
	var w rangeJSON
	if err := json.Unmarshal(b, &w); err != nil {
		return fmt.Errorf("clock: range: %w", err)
	}
	from, err := ParseInstant(w.From, Strict)
	if err != nil {
		return fmt.Errorf("clock: range.from: %w", err)
	}
	to, err := ParseInstant(w.To, Strict)
	if err != nil {
		return fmt.Errorf("clock: range.to: %w", err)
	}
	v := Range{From: from.Time.UTC(), To: to.Time.UTC()}
	if err := v.Check(); err != nil {
		return err
	}
	*r = v
	return nil
}

// ISORange spells r in the iso-range form a tool reads, "<from>..<to>", both ends Strict
// instants in UTC and to inclusive: to is written as r.To minus one step, at the precision
// whose step that is, so the spelling means exactly [From, To) again. The step is a second
// when both ends fall on whole seconds, else a millisecond when both fall on whole
// milliseconds, else a nanosecond. An empty range or one failing Check is refused.
func ISORange(r Range) (string, error) {
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
