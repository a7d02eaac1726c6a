// This file holds the one instant parser and its two profiles.

package clock

import (
	"fmt"
	"time"

	"github.com/agentfootprint/agentfootprint-go/internal/instant"
	"github.com/agentfootprint/agentfootprint-go/internal/textlen"
)

// Profile selects how strictly ParseInstant reads an instant.
type Profile uint8

const (
	// Lenient reads periods a tool declares (foreign minters): lower-case t/z and a leap
	// second (:60, read as the next minute's :00) are accepted.
	Lenient Profile = iota
	// Strict reads values the library itself sends to a tool: upper-case T and Z only, and
	// seconds up to 59.
	Strict
)

// String names the profile.
func (p Profile) String() string {
	if p == Strict {
		return "strict"
	}
	return "lenient"
}

// Precision is the finest unit the writer of an instant spelled: minutes, seconds, or a
// number of fraction digits.
type Precision uint8

const (
	// MinutePrecision: hh:mm, no seconds written.
	MinutePrecision Precision = iota
	// SecondPrecision: hh:mm:ss, no fraction written.
	SecondPrecision
)

// FractionPrecision returns the precision of a fraction written with digits digits (1–9).
// Values outside that range are clamped into it.
func FractionPrecision(digits int) Precision {
	digits = min(max(digits, 1), 9)
	return SecondPrecision + Precision(digits)
}

// FractionDigits returns how many fraction digits were written (0 for minutes or seconds).
func (p Precision) FractionDigits() int {
	if p <= SecondPrecision {
		return 0
	}
	return int(p - SecondPrecision)
}

// Step returns the unit of the last written digit: a minute, a second, or 10⁻ᵏ s.
func (p Precision) Step() time.Duration {
	switch p {
	case MinutePrecision:
		return time.Minute
	case SecondPrecision:
		return time.Second
	}
	step := time.Second
	for range p.FractionDigits() {
		step /= 10
	}
	return step
}

// String names the precision: "minute", "second" or "fraction(k)".
func (p Precision) String() string {
	switch p {
	case MinutePrecision:
		return "minute"
	case SecondPrecision:
		return "second"
	}
	return fmt.Sprintf("fraction(%d)", p.FractionDigits())
}

// Instant is a parsed ISO 8601 instant: the moment, in a fixed zone carrying the written
// offset (time.UTC for Z), and the precision it was written at.
type Instant struct {
	Time      time.Time
	Precision Precision
}

// ParseInstant reads s as YYYY-MM-DDThh:mm[:ss[.f{1,9}]] followed by Z or ±hh:mm, under
// profile p. Both profiles refuse: a missing zone, a bare date, a space for T, epoch numbers,
// unpadded or non-ASCII digits, a day past the end of its month (proleptic Gregorian), hour 24,
// minute over 59, an offset over 23:59, more than 9 fraction digits and a fraction without
// seconds. Strict also refuses lower-case t/z and second 60; Lenient rolls second 60 over to
// the next minute. A refusal is an *InstantError whose Reason names the rule broken. The grammar
// is the module's one (internal/instant), shared with packages coverage and tool.
func ParseInstant(s string, p Profile) (Instant, error) {
	prof := instant.Lenient
	if p == Strict {
		prof = instant.Strict
	}
	in, fault := instant.Parse(s, prof)
	if fault != "" {
		return Instant{}, &InstantError{Input: textlen.ClipInput(s), Profile: p, Reason: fault}
	}
	prec := MinutePrecision
	switch {
	case in.FractionDigits > 0:
		prec = FractionPrecision(in.FractionDigits)
	case in.HasSeconds:
		prec = SecondPrecision
	}
	return Instant{Time: in.Time, Precision: prec}, nil
}

// InstantError is the refusal of an instant: the input (clipped), the profile it was read
// under, and the rule it broke.
type InstantError struct {
	Input   string
	Profile Profile
	Reason  string
}

// Error names the value, the rule it broke, and two well-formed examples.
func (e *InstantError) Error() string {
	return fmt.Sprintf("clock: instant %q refused (%s): %s; write an ISO 8601 instant with a zone, such as 2026-10-09T15:40:00Z or 2026-10-09T08:40:00-07:00",
		e.Input, e.Profile, e.Reason)
}

// UTCString spells t the way rows record instants: UTC, RFC 3339, a fraction only when
// non-zero (2026-10-09T15:40:00Z).
func UTCString(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }
