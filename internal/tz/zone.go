// This file holds zone validation: the only zones accepted are the ones a person can name.

package tz

import (
	"fmt"
	"regexp"
	"slices"
	"sync"
	"time"
	_ "time/tzdata" // the tz database travels with the binary

	"github.com/agentfootprint/agentfootprint-go/internal/textlen"
)

// maxZoneLen is the longest zone name accepted.
const maxZoneLen = 64

// zoneShape is the spelling of an IANA Area/Location name.
var zoneShape = regexp.MustCompile(`^[A-Z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+)+$`)

// locations memoizes time.LoadLocation for names that passed validation. It is bounded by
// the generated name list (a few hundred entries) and only ever holds the result of a pure
// function of the name, so sharing it across goroutines changes no answer.
var locations sync.Map // string → *time.Location

// Zone is a validated time zone: the name as the person (or app) wrote it and its location.
// The zero Zone means "no zone was given"; it renders as UTC.
type Zone struct {
	name string
	loc  *time.Location
}

// UTC returns the UTC zone, the spelling used when nobody named a zone.
func UTC() Zone { return Zone{name: "UTC", loc: time.UTC} }

// Name returns the zone name as written, or "" for the zero Zone.
func (z Zone) Name() string { return z.name }

// String returns the name, or "UTC" for the zero Zone (the zone it renders in).
func (z Zone) String() string {
	if z.name == "" {
		return "UTC"
	}
	return z.name
}

// IsZero reports whether z is the zero Zone (no zone given).
func (z Zone) IsZero() bool { return z.name == "" }

// Location returns the zone's location; time.UTC for the zero Zone.
func (z Zone) Location() *time.Location {
	if z.loc == nil {
		return time.UTC
	}
	return z.loc
}

// IsUTCName reports whether the zone is spelled without an offset: UTC or Etc/UTC (or none).
func (z Zone) IsUTCName() bool {
	return z.name == "" || z.name == "UTC" || z.name == "Etc/UTC"
}

// MarshalText writes the zone name. The zero Zone is refused: it has no name to write.
func (z Zone) MarshalText() ([]byte, error) {
	if z.name == "" {
		return nil, &Error{Kind: ZoneEmpty}
	}
	return []byte(z.name), nil
}

// UnmarshalText reads a zone name under the rules of Parse.
func (z *Zone) UnmarshalText(b []byte) error {
	v, err := Parse(string(b))
	if err != nil {
		return err
	}
	*z = v
	return nil
}

// Parse validates a zone name and loads it from the embedded tz database. It accepts
// "UTC" and IANA Area/Location names (America/Los_Angeles, Etc/GMT+5, US/Pacific) written in
// their exact case. It refuses, with a *Error: "" and "Local" (which load the server's
// zone, never the person's), names over 64 bytes, abbreviations and legacy short names (EST,
// CET, GMT), bare offsets (+02:00, UTC+2), and names absent from the database.
func Parse(name string) (Zone, error) {
	if name == "UTC" {
		return UTC(), nil
	}
	if v, ok := locations.Load(name); ok {
		return Zone{name: name, loc: v.(*time.Location)}, nil
	}
	if kind, ok := zoneRefusal(name); !ok {
		return Zone{}, &Error{Input: textlen.ClipInput(name), Kind: kind}
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return Zone{}, &Error{Input: textlen.ClipInput(name), Kind: ZoneNotLoadable, Err: err}
	}
	locations.Store(name, loc)
	return Zone{name: name, loc: loc}, nil
}

// zoneRefusal applies the name rules in order and says which one refused the name.
func zoneRefusal(name string) (Refusal, bool) {
	switch {
	case name == "":
		return ZoneEmpty, false
	case name == "Local":
		return ZoneLocal, false
	case len(name) > maxZoneLen:
		return ZoneTooLong, false
	case !zoneShape.MatchString(name):
		return shapeRefusal(name), false
	}
	if _, found := slices.BinarySearch(tzNames[:], name); !found {
		return ZoneNotInDatabase, false
	}
	return 0, true
}

// shapeRefusal tells an abbreviation from an offset from any other misspelling.
func shapeRefusal(name string) Refusal {
	hasSlash, hasLetter, hasSign, hasDigit := false, false, false, false
	for _, r := range name {
		switch {
		case r == '/':
			hasSlash = true
		case r == '+', r == '-', r == ':':
			hasSign = true
		case r >= '0' && r <= '9':
			hasDigit = true
		case r >= 'A' && r <= 'Z', r >= 'a' && r <= 'z':
			hasLetter = true
		}
	}
	switch {
	case hasSlash:
		return ZoneNotInDatabase
	case hasSign, hasDigit && !hasLetter:
		return ZoneOffset
	case hasLetter:
		return ZoneAbbreviation
	}
	return ZoneNotInDatabase
}

// Refusal says which rule refused a zone name.
type Refusal int

// The rules a zone name can fail, in the order they are checked.
const (
	ZoneEmpty         Refusal = iota + 1 // ""
	ZoneLocal                            // "Local": the server's zone
	ZoneTooLong                          // over 64 bytes
	ZoneAbbreviation                     // EST, PST, CET, GMT …
	ZoneOffset                           // +05:30, UTC+2, GMT+1 …
	ZoneNotInDatabase                    // Mars/Olympus, america/los_angeles …
	ZoneNotLoadable                      // listed, but the database would not load it
)

// String names the rule.
func (k Refusal) String() string {
	switch k {
	case ZoneEmpty:
		return "empty"
	case ZoneLocal:
		return "local"
	case ZoneTooLong:
		return "too-long"
	case ZoneAbbreviation:
		return "abbreviation"
	case ZoneOffset:
		return "offset"
	case ZoneNotInDatabase:
		return "not-in-database"
	case ZoneNotLoadable:
		return "not-loadable"
	}
	return fmt.Sprintf("Refusal(%d)", int(k))
}

// Error is the refusal of a zone name. Input holds the name as given, clipped to a
// readable length; Kind says which rule refused it.
type Error struct {
	Input string
	Kind  Refusal
	Err   error // the loader's error, for ZoneNotLoadable only
}

// Error names the refused value, why it was refused, and what to write instead.
func (e *Error) Error() string {
	var why string
	switch e.Kind {
	case ZoneEmpty:
		return "clock: no zone name was given; name the person's zone as UTC or an IANA Area/Location such as America/New_York"
	case ZoneLocal:
		why = "names the server's own zone, never the person's"
	case ZoneTooLong:
		why = fmt.Sprintf("is longer than %d bytes", maxZoneLen)
	case ZoneAbbreviation:
		why = "is an abbreviation, which names no place and no daylight-saving rule"
	case ZoneOffset:
		why = "is a bare offset, which follows no daylight-saving rule"
	case ZoneNotInDatabase:
		why = "is not a zone name in the tz database (names are case-sensitive)"
	case ZoneNotLoadable:
		why = fmt.Sprintf("could not be loaded: %v", e.Err)
	default:
		why = "was refused"
	}
	return fmt.Sprintf("clock: zone %q %s; use UTC or an IANA Area/Location such as America/New_York", e.Input, why)
}

// Unwrap returns the loader's error, if any.
func (e *Error) Unwrap() error { return e.Err }
