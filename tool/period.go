// This file holds the Period declaration: the spellings and directions a
// tool author writes. The grammar of the spellings is internal/periodspell.

package tool

import "github.com/agentfootprint/agentfootprint-go/internal/periodspell"

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

// valid reports whether sp is one of the three spellings.
func (sp PeriodSpelling) valid() bool {
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
	// letters of "smhdw". Empty means "mhdw": seconds must be asked for.
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

// unitsOrDefault returns p.Units, or the default units when p.Units is
// empty.
func (p Period) unitsOrDefault() string {
	if p.Units == "" {
		return periodspell.DefaultUnits
	}
	return p.Units
}

// clone returns a copy of p sharing no memory with it.
func (p Period) clone() Period {
	p.Accepts = append([]PeriodSpelling(nil), p.Accepts...)
	return p
}

// durationFact reports whether s is a duration spelling as used by the
// Period facts Retention, Granularity and MaxRange: a lookback in units
// "smhdw".
func durationFact(s string) bool {
	return periodspell.ParsesUnder(s, string(SpellingLookback), "smhdw")
}
