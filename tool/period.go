// This file holds the Period declaration and the one grammar of its
// spellings: parse, format, convert.

package tool

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/agentfootprint/agentfootprint-go/internal/instant"
)

// PeriodSpelling names how a tool's period argument is written. The three
// constants are the only spellings; their strings are wire facts.
type PeriodSpelling string

// The three spellings.
const (
	// SpellingLookback is a positive count and a unit: "30m", "24h", "2w".
	SpellingLookback PeriodSpelling = "lookback"
	// SpellingSignedLookback is a lookback with a leading minus: "-24h".
	SpellingSignedLookback PeriodSpelling = "signed-lookback"
	// SpellingISORange is two strict instants joined by "..":
	// "2026-10-09T00:00:00Z..2026-10-10T00:00:00Z".
	SpellingISORange PeriodSpelling = "iso-range"
)

// Valid reports whether sp is one of the three spellings.
func (sp PeriodSpelling) Valid() bool {
	switch sp {
	case SpellingLookback, SpellingSignedLookback, SpellingISORange:
		return true
	}
	return false
}

// Direction limits which side of "now" a tool's window may lie on.
type Direction string

// The directions. The empty Direction places no limit.
const (
	// DirectionPast: the window must not reach into the future.
	DirectionPast Direction = "past"
	// DirectionFuture: the window must not reach into the past.
	DirectionFuture Direction = "future"
)

// DefaultUnits are the lookback units accepted when a Period names none.
// Seconds ("s") must be asked for through Period.Units.
const DefaultUnits = "mhdw"

// Period declares which argument sets a tool's time window and how that
// argument is spelled. It is a declaration, never inferred: a tool without
// WithPeriod behaves byte for byte as if this type did not exist.
//
// New refuses a Period whose Argument is blank, carries no ask-or-assume
// rule or is not a string property; whose Spelling or an Accepts entry is
// not one of the three spellings; whose Units are not distinct letters of
// "smhdw"; whose Retention, Granularity or MaxRange is not a duration
// spelling such as "30d" or "1s"; whose Direction is unknown; or whose
// argument's declared values (the assumed default, the ask's choices) do
// not parse under Spelling.
type Period struct {
	// Argument is the name of the top-level argument holding the window.
	// It is also the results layer's join key.
	Argument string
	// Spelling is how the argument is written.
	Spelling PeriodSpelling
	// Accepts lists further spellings the tool also takes for the same
	// argument (for example iso-range next to lookback, so a redrawn
	// window can be sent exactly).
	Accepts []PeriodSpelling
	// Units are the lookback unit letters the argument accepts, distinct
	// letters of "smhdw". Empty means DefaultUnits.
	Units string
	// Retention is how far back the tool's source keeps data ("30d").
	Retention string
	// Granularity is the source's time step ("1s", "1m").
	Granularity string
	// MaxRange is the longest window the tool accepts ("7d").
	MaxRange string
	// Direction limits the window to the past or the future.
	Direction Direction
}

// UnitsOrDefault returns p.Units, or DefaultUnits when p.Units is empty.
func (p Period) UnitsOrDefault() string {
	if p.Units == "" {
		return DefaultUnits
	}
	return p.Units
}

// clone returns a copy of p sharing no memory with it.
func (p Period) clone() Period {
	p.Accepts = append([]PeriodSpelling(nil), p.Accepts...)
	return p
}

// PeriodValue is one period argument value, parsed under a spelling.
// Its String method gives back exactly the text it was parsed from.
type PeriodValue struct {
	// Spelling is the spelling the value was parsed under.
	Spelling PeriodSpelling
	// Count holds the decimal digits of a lookback, as written (no
	// leading zero, no sign). It is kept as text because the grammar
	// does not bound it; see Duration.
	Count string
	// Unit is the lookback unit letter: one of "smhdw".
	Unit byte
	// From and To are the two ends of an iso-range, as written.
	From, To string
}

// String formats v in its spelling. For a value returned by ParsePeriod it
// equals the parsed text.
func (v PeriodValue) String() string {
	switch v.Spelling {
	case SpellingLookback:
		return v.Count + string(v.Unit)
	case SpellingSignedLookback:
		return "-" + v.Count + string(v.Unit)
	case SpellingISORange:
		return v.From + ".." + v.To
	}
	return ""
}

// Duration returns the length of a lookback or signed lookback, with d = 24h
// and w = 7d (machine durations, not calendar days). It reports false for
// an iso-range and for a count too large for time.Duration: such a value is
// well formed but cannot be measured.
func (v PeriodValue) Duration() (time.Duration, bool) {
	if v.Spelling != SpellingLookback && v.Spelling != SpellingSignedLookback {
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
func (v PeriodValue) Ends() (from, to time.Time, ok bool) {
	if v.Spelling != SpellingISORange {
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

// ErrPeriodSyntax is wrapped by every error ParsePeriod returns for a value
// that does not follow its spelling's grammar.
var ErrPeriodSyntax = errors.New("period value does not follow its spelling")

// ParsePeriod parses s under spelling sp. units are the lookback unit
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
// ErrPeriodSyntax and names the spelling; it is a format check only.
func ParsePeriod(s string, sp PeriodSpelling, units string) (PeriodValue, error) {
	if units == "" {
		units = DefaultUnits
	}
	switch sp {
	case SpellingLookback:
		return parseLookback(s, units, sp)
	case SpellingSignedLookback:
		if len(s) == 0 || s[0] != '-' {
			return PeriodValue{}, fmt.Errorf("%w: %s needs a leading '-' before the count, as in -24h", ErrPeriodSyntax, sp)
		}
		return parseLookback(s[1:], units, sp)
	case SpellingISORange:
		return parseISORange(s)
	}
	return PeriodValue{}, fmt.Errorf("%w: unknown spelling %q (use lookback, signed-lookback or iso-range)", ErrPeriodSyntax, string(sp))
}

// ParsesUnder reports whether s follows spelling sp with the given
// lookback units (empty means DefaultUnits). It is the one format check
// every layer uses for period arguments.
func ParsesUnder(s string, sp PeriodSpelling, units string) bool {
	_, err := ParsePeriod(s, sp, units)
	return err == nil
}

func parseLookback(s, units string, sp PeriodSpelling) (PeriodValue, error) {
	if len(s) < 2 {
		return PeriodValue{}, fmt.Errorf("%w: %s is a count and a unit letter, as in 24h", ErrPeriodSyntax, sp)
	}
	if s[0] < '1' || s[0] > '9' {
		return PeriodValue{}, fmt.Errorf("%w: %s count must start with a digit 1-9", ErrPeriodSyntax, sp)
	}
	last := len(s) - 1
	for i := 1; i < last; i++ {
		if s[i] < '0' || s[i] > '9' {
			return PeriodValue{}, fmt.Errorf("%w: %s count must be digits only, then one unit letter", ErrPeriodSyntax, sp)
		}
	}
	u := s[last]
	if strings.IndexByte(units, u) < 0 || strings.IndexByte(instant.UnitLetters, u) < 0 {
		return PeriodValue{}, fmt.Errorf("%w: %s unit must be one of %q", ErrPeriodSyntax, sp, units)
	}
	return PeriodValue{Spelling: sp, Count: s[:last], Unit: u}, nil
}

func parseISORange(s string) (PeriodValue, error) {
	i := strings.Index(s, "..")
	if i < 0 || strings.Contains(s[i+2:], "..") {
		return PeriodValue{}, fmt.Errorf("%w: iso-range is two instants joined by exactly one '..'", ErrPeriodSyntax)
	}
	from, to := s[:i], s[i+2:]
	if _, fault := parseStrictInstant(from); fault != "" {
		return PeriodValue{}, fmt.Errorf("%w: iso-range start is not a strict instant such as 2026-10-09T00:00:00Z: %s", ErrPeriodSyntax, fault)
	}
	if _, fault := parseStrictInstant(to); fault != "" {
		return PeriodValue{}, fmt.Errorf("%w: iso-range end is not a strict instant such as 2026-10-10T00:00:00Z: %s", ErrPeriodSyntax, fault)
	}
	return PeriodValue{Spelling: SpellingISORange, From: from, To: to}, nil
}

// ConvertSpelling rewrites s from one spelling to another. Only lookback
// and signed-lookback convert into each other (by adding or removing the
// leading '-'); converting a spelling to itself returns s once it parses.
// Units are not checked here beyond the letters "smhdw". It fails when s
// does not parse under from, or when the pair does not convert.
func ConvertSpelling(s string, from, to PeriodSpelling) (string, error) {
	if !from.Valid() || !to.Valid() {
		return "", fmt.Errorf("tool: cannot convert between spellings %q and %q: use lookback, signed-lookback or iso-range", string(from), string(to))
	}
	v, err := ParsePeriod(s, from, "smhdw")
	if err != nil {
		return "", err
	}
	if from == to {
		return s, nil
	}
	if from == SpellingISORange || to == SpellingISORange {
		return "", fmt.Errorf("tool: %s does not convert to %s: only lookback and signed-lookback convert", from, to)
	}
	v.Spelling = to
	return v.String(), nil
}

// durationFact reports whether s is a duration spelling as used by the
// Period facts Retention, Granularity and MaxRange: a lookback in units
// "smhdw".
func durationFact(s string) bool {
	return ParsesUnder(s, SpellingLookback, "smhdw")
}
