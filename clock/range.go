// This file holds Range, the half-open stretch of time [From, To), and its JSON form.

package clock

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/agentfootprint/agentfootprint-go/internal/instant"
	"github.com/agentfootprint/agentfootprint-go/internal/textlen"
)

// Range is a half-open stretch of time [From, To): From is inside, To is the first instant
// after it. Asked, read, missing and extra windows are ranges; a window the person set in the
// app's control is one too. Its JSON form is {"from","to"} spelled in UTC.
type Range struct {
	From time.Time
	To   time.Time
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
		return fmt.Errorf("clock: range.from %s is after range.to %s", utcString(r.From), utcString(r.To))
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
	return json.Marshal(rangeJSON{From: utcString(r.From), To: utcString(r.To)})
}

// UnmarshalJSON reads {"from","to"}; each end must be a Strict instant and from may not be
// after to.
func (r *Range) UnmarshalJSON(b []byte) error {
	var w rangeJSON
	if err := json.Unmarshal(b, &w); err != nil {
		return fmt.Errorf("clock: range: %w", err)
	}
	from, err := strictInstant(w.From)
	if err != nil {
		return fmt.Errorf("clock: range.from: %w", err)
	}
	to, err := strictInstant(w.To)
	if err != nil {
		return fmt.Errorf("clock: range.to: %w", err)
	}
	v := Range{From: from.UTC(), To: to.UTC()}
	if err := v.Check(); err != nil {
		return err
	}
	*r = v
	return nil
}

// strictInstant reads s as an instant the library itself wrote (the Strict profile of the
// module's one grammar). Its refusal reads like the time layer's own instant refusal.
func strictInstant(s string) (time.Time, error) {
	in, fault := instant.Parse(s, instant.Strict)
	if fault != "" {
		return time.Time{}, fmt.Errorf("clock: instant %q refused (strict): %s; write an ISO 8601 instant with a zone, such as 2026-10-09T15:40:00Z or 2026-10-09T08:40:00-07:00", textlen.ClipInput(s), fault)
	}
	return in.Time, nil
}

// utcString spells t the way rows record instants: UTC, RFC 3339, a fraction only when
// non-zero.
func utcString(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }
