// This file holds what a period value means at an instant: the length of a duration
// spelling, and the range a look-back or an iso-range covers. Which values are well formed is
// package tool's to say; this file measures them.

package clock

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/agentfootprint/agentfootprint-go/clock"
	"github.com/agentfootprint/agentfootprint-go/internal/instant"
	"github.com/agentfootprint/agentfootprint-go/internal/textlen"
)

// The period spellings a tool may declare for its time argument.
const (
	SpellingLookback       = "lookback"        // "2h": the last two hours
	SpellingSignedLookback = "signed-lookback" // "-2h": the same, written with a sign
	SpellingISORange       = "iso-range"       // "<from>..<to>", both Strict, to inclusive
)

// ErrUnmeasurable marks a well-formed duration too long for time.Duration: it names a window
// the library cannot measure, so nothing is compared.
var ErrUnmeasurable = errors.New("clock: too long to measure")

// ValueError refuses a period value the library cannot give a meaning to. A call whose value
// is refused is unread: nothing is compared.
type ValueError struct {
	Spelling string
	Value    string // clipped
	Reason   string
	Err      error // ErrUnmeasurable, or the instant parser's error
}

// Error names the value, its spelling and why it has no meaning here.
func (e *ValueError) Error() string {
	return fmt.Sprintf("clock: %s value %q: %s", e.Spelling, e.Value, e.Reason)
}

// Unwrap returns the underlying cause, if any.
func (e *ValueError) Unwrap() error { return e.Err }

// unitOf maps a duration unit letter to its length; d and w are machine durations (24 h and
// 7 × 24 h), not calendar days.
func unitOf(c byte) (time.Duration, bool) { return instant.UnitLength(c) }

// DurationOf measures a duration spelling: a positive integer without leading zeros, then one
// unit of s, m, h, d (24 h) or w (7 d) — "30m", "7d". It is used for look-backs and for the
// durations a tool declares (retention, granularity, maximum range). A spelling too long for
// time.Duration is refused with an error wrapping ErrUnmeasurable.
func DurationOf(v string) (time.Duration, error) {
	fail := func(reason string, err error) (time.Duration, error) {
		return 0, &ValueError{Spelling: "duration", Value: textlen.ClipInput(v), Reason: reason, Err: err}
	}
	if len(v) < 2 {
		return fail("want a whole number and a unit of s, m, h, d or w, such as 30m", nil)
	}
	unit, ok := unitOf(v[len(v)-1])
	if !ok {
		return fail("the unit must be one of s, m, h, d or w", nil)
	}
	digitsPart := v[:len(v)-1]
	if digitsPart[0] < '1' || digitsPart[0] > '9' {
		return fail("the number must be a whole number from 1, without leading zeros", nil)
	}
	var n int64
	for _, c := range []byte(digitsPart) {
		if c < '0' || c > '9' {
			return fail("the number must be written in ASCII digits only", nil)
		}
		if n > (math.MaxInt64-int64(c-'0'))/10 {
			return fail("the number is too large to measure", ErrUnmeasurable)
		}
		n = n*10 + int64(c-'0')
	}
	if n > math.MaxInt64/int64(unit) {
		return fail("the duration is too long to measure", ErrUnmeasurable)
	}
	return time.Duration(n) * unit, nil
}

// Meaning returns the range a period value covers when evaluated at instant at:
//
//   - lookback "2h" and signed-lookback "-2h": [at − 2h, at);
//   - iso-range "A..B": [A, B + step), where step is the unit of B's last written digit
//     (a minute, a second, or 10⁻ᵏ s for k fraction digits); at plays no part.
//
// It refuses, with a *ValueError, an unknown spelling, a value it cannot measure, an
// iso-range whose ends are not Strict instants, and one whose from is after its to.
func Meaning(spelling, value string, at time.Time) (clock.Range, error) {
	fail := func(reason string, err error) (clock.Range, error) {
		return clock.Range{}, &ValueError{Spelling: spelling, Value: textlen.ClipInput(value), Reason: reason, Err: err}
	}
	switch spelling {
	case SpellingLookback, SpellingSignedLookback:
		v := value
		if spelling == SpellingSignedLookback {
			var ok bool
			if v, ok = strings.CutPrefix(value, "-"); !ok {
				return fail("a signed look-back starts with '-'", nil)
			}
		}
		d, err := DurationOf(v)
		if err != nil {
			var ve *ValueError
			if errors.As(err, &ve) {
				return fail(ve.Reason, ve.Err)
			}
			return fail(err.Error(), err)
		}
		return Lookback(at, d), nil
	case SpellingISORange:
		from, to, ok := strings.Cut(value, "..")
		if !ok || strings.Contains(to, "..") {
			return fail("an iso-range is two instants joined by one '..'", nil)
		}
		a, err := ParseInstant(from, Strict)
		if err != nil {
			return fail("its start is not a strict instant", err)
		}
		b, err := ParseInstant(to, Strict)
		if err != nil {
			return fail("its end is not a strict instant", err)
		}
		if a.Time.After(b.Time) {
			return fail("its start is after its end", nil)
		}
		return clock.Range{From: a.Time.UTC(), To: b.Time.Add(b.Precision.Step()).UTC()}, nil
	}
	return fail(fmt.Sprintf("unknown spelling (want %s, %s or %s)", SpellingLookback, SpellingSignedLookback, SpellingISORange), nil)
}
