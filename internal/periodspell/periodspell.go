// Package periodspell is the one grammar of a tool's period spellings
// (lookback "2h", signed-lookback "-2h", iso-range "A..B"): parse, format
// and convert. Package tool checks declared values with it at definition;
// the inputs and time layers check and convert argument values with it.
package periodspell

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/agentfootprint/agentfootprint-go/internal/instant"
)

// The three spellings, as tool.PeriodSpelling spells them (wire facts).
const (
	Lookback       = "lookback"
	SignedLookback = "signed-lookback"
	ISORange       = "iso-range"
)

// DefaultUnits are the lookback units accepted when a Period names none.
// Seconds ("s") must be asked for.
const DefaultUnits = "mhdw"

func valid(sp string) bool {
	return sp == Lookback || sp == SignedLookback || sp == ISORange
}

// parseStrictInstant reads YYYY-MM-DDThh:mm[:ss[.f{1,9}]](Z|±hh:mm) with upper-case T and Z, a
// real calendar day, hour ≤ 23, minute and second ≤ 59 and an offset ≤ 23:59 (the module's one
// instant grammar, internal/instant, under its strict profile). It returns the moment (in UTC
// when the offset is zero) or the fault naming the rule the text breaks.
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

// Value is one period argument value, parsed under a spelling.
// Its String method gives back exactly the text it was parsed from.
type Value struct {
	// Spelling is the spelling the value was parsed under.
	Spelling string
	// Count holds the decimal digits of a lookback, as written (no
	// leading zero, no sign). It is kept as text because the grammar
	// does not bound it; see Duration.
	Count string
	// Unit is the lookback unit letter: one of "smhdw".
	Unit byte
	// From and To are the two ends of an iso-range, as written.
	From, To string
}

// String formats v in its spelling. For a value returned by Parse it
// equals the parsed text.
func (v Value) String() string {
	switch v.Spelling {
	case Lookback:
		return v.Count + string(v.Unit)
	case SignedLookback:
		return "-" + v.Count + string(v.Unit)
	case ISORange:
		return v.From + ".." + v.To
	}
	return ""
}

// Duration returns the length of a lookback or signed lookback, with d = 24h
// and w = 7d (machine durations, not calendar days). It reports false for
// an iso-range and for a count too large for time.Duration: such a value is
// well formed but cannot be measured.
func (v Value) Duration() (time.Duration, bool) {
	if v.Spelling != Lookback && v.Spelling != SignedLookback {
		return 0, false
	}
	unit, ok := unitDuration(v.Unit)
	if !ok {
		return 0, false
	}
	limit := int64(1<<63-1) / int64(unit)
	var n int64
	for i := 0; i < len(v.Count); i++ {
		c := v.Count[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		if n > (limit-int64(c-'0'))/10 {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if n == 0 {
		return 0, false
	}
	return time.Duration(n) * unit, true
}

// Ends returns the two instants of an iso-range. It reports false for any
// other spelling or for ends that are not strict instants.
func (v Value) Ends() (from, to time.Time, ok bool) {
	if v.Spelling != ISORange {
		return time.Time{}, time.Time{}, false
	}
	f, faultF := parseStrictInstant(v.From)
	t, faultT := parseStrictInstant(v.To)
	if faultF != "" || faultT != "" {
		return time.Time{}, time.Time{}, false
	}
	return f, t, true
}

func unitDuration(u byte) (time.Duration, bool) { return instant.UnitLength(u) }

// ErrSyntax is wrapped by every error Parse returns for a value
// that does not follow its spelling's grammar.
var ErrSyntax = errors.New("period value does not follow its spelling")

// Parse parses s under spelling sp. units are the lookback unit
// letters allowed (empty means DefaultUnits; letters outside "smhdw" never
// count) and are ignored for iso-range.
//
// The grammar, one per spelling:
//
//	lookback         [1-9][0-9]*U          U one letter of units
//	signed-lookback  -[1-9][0-9]*U
//	iso-range        I..I                  exactly one "..", I a strict instant
//
// A strict instant is YYYY-MM-DDThh:mm[:ss[.f{1,9}]] followed by Z or
// ±hh:mm, with upper-case T and Z, a real calendar day, hour ≤ 23,
// minute and second ≤ 59, offset ≤ 23:59. The order of the two ends is not
// checked here. Nothing is trimmed or case-folded. The error wraps
// ErrSyntax and names the spelling; it is a format check only.
func Parse(s string, sp string, units string) (Value, error) {
	if units == "" {
		units = DefaultUnits
	}
	switch sp {
	case Lookback:
		return parseLookback(s, units, sp)
	case SignedLookback:
		if len(s) == 0 || s[0] != '-' {
			return Value{}, fmt.Errorf("%w: %s needs a leading '-' before the count, as in -24h", ErrSyntax, sp)
		}
		return parseLookback(s[1:], units, sp)
	case ISORange:
		return parseISORange(s)
	}
	return Value{}, fmt.Errorf("%w: unknown spelling %q (use lookback, signed-lookback or iso-range)", ErrSyntax, sp)
}

// ParsesUnder reports whether s follows spelling sp with the given
// lookback units (empty means DefaultUnits). It is the one format check
// every layer uses for period arguments.
func ParsesUnder(s string, sp string, units string) bool {
	_, err := Parse(s, sp, units)
	return err == nil
}

func parseLookback(s, units string, sp string) (Value, error) {
	if len(s) < 2 {
		return Value{}, fmt.Errorf("%w: %s is a count and a unit letter, as in 24h", ErrSyntax, sp)
	}
	if s[0] < '1' || s[0] > '9' {
		return Value{}, fmt.Errorf("%w: %s count must start with a digit 1-9", ErrSyntax, sp)
	}
	last := len(s) - 1
	for i := 1; i < last; i++ {
		if s[i] < '0' || s[i] > '9' {
			return Value{}, fmt.Errorf("%w: %s count must be digits only, then one unit letter", ErrSyntax, sp)
		}
	}
	u := s[last]
	if strings.IndexByte(units, u) < 0 || strings.IndexByte(instant.UnitLetters, u) < 0 {
		return Value{}, fmt.Errorf("%w: %s unit must be one of %q", ErrSyntax, sp, units)
	}
	return Value{Spelling: sp, Count: s[:last], Unit: u}, nil
}

func parseISORange(s string) (Value, error) {
	i := strings.Index(s, "..")
	if i < 0 || strings.Contains(s[i+2:], "..") {
		return Value{}, fmt.Errorf("%w: iso-range is two instants joined by exactly one '..'", ErrSyntax)
	}
	from, to := s[:i], s[i+2:]
	if _, fault := parseStrictInstant(from); fault != "" {
		return Value{}, fmt.Errorf("%w: iso-range start is not a strict instant such as 2026-10-09T00:00:00Z: %s", ErrSyntax, fault)
	}
	if _, fault := parseStrictInstant(to); fault != "" {
		return Value{}, fmt.Errorf("%w: iso-range end is not a strict instant such as 2026-10-10T00:00:00Z: %s", ErrSyntax, fault)
	}
	return Value{Spelling: ISORange, From: from, To: to}, nil
}

// Convert rewrites s from one spelling to another. Only lookback
// and signed-lookback convert into each other (by adding or removing the
// leading '-'); converting a spelling to itself returns s once it parses.
// Units are not checked here beyond the letters "smhdw". It fails when s
// does not parse under from, or when the pair does not convert.
func Convert(s string, from, to string) (string, error) {
	if !valid(from) || !valid(to) {
		return "", fmt.Errorf("tool: cannot convert between spellings %q and %q: use lookback, signed-lookback or iso-range", from, to)
	}
	v, err := Parse(s, from, "smhdw")
	if err != nil {
		return "", err
	}
	if from == to {
		return s, nil
	}
	if from == ISORange || to == ISORange {
		return "", fmt.Errorf("tool: %s does not convert to %s: only lookback and signed-lookback convert", from, to)
	}
	v.Spelling = to
	return v.String(), nil
}
