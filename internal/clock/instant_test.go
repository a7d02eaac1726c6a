package clock

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/internal/textlen"
	"github.com/agentfootprint/agentfootprint-go/internal/tz"
)

func TestParseInstantAccepts(t *testing.T) {
	tests := []struct {
		in      string
		profile Profile
		utc     string // the instant in UTC, RFC 3339
		prec    Precision
	}{
		{"2026-10-09T15:40Z", Strict, "2026-10-09T15:40:00Z", MinutePrecision},
		{"2026-10-09T15:40:03Z", Strict, "2026-10-09T15:40:03Z", SecondPrecision},
		{"2026-10-09T15:40:03.3Z", Strict, "2026-10-09T15:40:03.3Z", FractionPrecision(1)},
		{"2026-10-09T15:40:03.300Z", Strict, "2026-10-09T15:40:03.3Z", FractionPrecision(3)},
		{"2026-10-09T15:40:03.123456789Z", Strict, "2026-10-09T15:40:03.123456789Z", FractionPrecision(9)},
		{"2026-10-09T08:40:00-07:00", Strict, "2026-10-09T15:40:00Z", SecondPrecision},
		{"2026-10-09T11:00+02:00", Strict, "2026-10-09T09:00:00Z", MinutePrecision},
		{"2026-10-09T15:40:00-00:00", Strict, "2026-10-09T15:40:00Z", SecondPrecision},
		{"2026-10-09T15:40:00+23:59", Strict, "2026-10-08T15:41:00Z", SecondPrecision},
		{"2024-02-29T00:00Z", Strict, "2024-02-29T00:00:00Z", MinutePrecision},
		{"2000-02-29T00:00Z", Strict, "2000-02-29T00:00:00Z", MinutePrecision},
		{"0000-01-01T00:00Z", Strict, "0000-01-01T00:00:00Z", MinutePrecision},
		{"0099-03-01T00:00Z", Strict, "0099-03-01T00:00:00Z", MinutePrecision},
		{"9999-12-31T23:59:59.999999999Z", Strict, "9999-12-31T23:59:59.999999999Z", FractionPrecision(9)},
		{"2026-10-09t15:40z", Lenient, "2026-10-09T15:40:00Z", MinutePrecision},
		{"2026-12-31T23:59:60Z", Lenient, "2027-01-01T00:00:00Z", SecondPrecision},
		{"2026-06-30T23:59:60.5+01:00", Lenient, "2026-06-30T23:00:00.5Z", FractionPrecision(1)},
	}
	for _, tt := range tests {
		t.Run(tt.profile.String()+"/"+tt.in, func(t *testing.T) {
			got, err := ParseInstant(tt.in, tt.profile)
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if s := UTCString(got.Time); s != tt.utc {
				t.Errorf("instant %s, want %s", s, tt.utc)
			}
			if got.Precision != tt.prec {
				t.Errorf("precision %v, want %v", got.Precision, tt.prec)
			}
			if tt.profile == Strict {
				if _, err := ParseInstant(tt.in, Lenient); err != nil {
					t.Errorf("a strict instant is refused by the lenient profile: %v", err)
				}
			}
		})
	}
}

func TestParseInstantRefuses(t *testing.T) {
	tests := []struct {
		in      string
		profile Profile
		reason  string // a fragment of the reason
	}{
		{"2026-10-09T15:40:00", Lenient, "zone is missing"},
		{"2026-10-09", Lenient, "date alone"},
		{"2026-10-09 15:40:00Z", Lenient, "T must separate"},
		{"1760024400", Lenient, "too short"},
		{"1760024400000000000000", Lenient, "date must be"},
		{"2026-1-09T15:40:00Z", Lenient, "date must be"},
		{"2026-10-09T5:40:00Z", Lenient, "time must be"},
		{"2026-10-09T15:40:0Z", Lenient, "seconds must be"},
		{"2026-02-29T00:00Z", Lenient, "does not exist"},
		{"1900-02-29T00:00Z", Lenient, "does not exist"},
		{"2026-04-31T00:00Z", Lenient, "does not exist"},
		{"2026-00-10T00:00Z", Lenient, "month"},
		{"2026-13-10T00:00Z", Lenient, "month"},
		{"2026-10-00T00:00Z", Lenient, "does not exist"},
		{"2026-10-09T24:00:00Z", Lenient, "hour"},
		{"2026-10-09T23:60Z", Lenient, "minute"},
		{"2026-10-09T23:59:61Z", Lenient, "second"},
		{"2026-10-09T23:00+24:00", Lenient, "offset"},
		{"2026-10-09T23:00+05:60", Lenient, "offset"},
		{"2026-10-09T23:00+0530", Lenient, "offset"},
		{"2026-10-09T23:00+05", Lenient, "offset"},
		{"2026-10-09T15:40:00.1234567890Z", Lenient, "1 to 9 digits"},
		{"2026-10-09T15:40:00.Z", Lenient, "1 to 9 digits"},
		{"2026-10-09T15:40.5Z", Lenient, "seconds written before"},
		{"2026-10-09T15:40:00ZZ", Lenient, "after the zone"},
		{"2026-10-09T15:40:00 Z", Lenient, "zone must be"},
		{"2026-10-09T15:40:00EST", Lenient, "zone must be"},
		{"２026-10-09T15:40:00Z", Lenient, "date must be"},
		{"2026-10-09t15:40:00Z", Strict, "upper-case T"},
		{"2026-10-09T15:40:00z", Strict, "upper-case Z"},
		{"2026-12-31T23:59:60Z", Strict, "00 to 59"},
		{"", Lenient, "too short"},
		{strings.Repeat("2", 40), Lenient, "too long"},
	}
	for _, tt := range tests {
		t.Run(tt.profile.String()+"/"+tt.in, func(t *testing.T) {
			_, err := ParseInstant(tt.in, tt.profile)
			var ie *InstantError
			if !errors.As(err, &ie) {
				t.Fatalf("want *InstantError, got %v", err)
			}
			if !strings.Contains(ie.Reason, tt.reason) {
				t.Errorf("reason %q, want it to mention %q", ie.Reason, tt.reason)
			}
			if ie.Profile != tt.profile || !strings.Contains(err.Error(), tt.profile.String()) {
				t.Errorf("error %q does not carry the profile %v", err, tt.profile)
			}
			if len(tt.in) <= textlen.ClipInputBytes && !strings.Contains(err.Error(), tt.in) {
				t.Errorf("error %q does not quote the input", err)
			}
		})
	}
}

func TestInstantsCompareWithOffsetsFolded(t *testing.T) {
	a, _ := ParseInstant("2026-10-09T11:00+02:00", Strict)
	b, _ := ParseInstant("2026-10-09T09:00:00.000Z", Strict)
	if a.Time.Compare(b.Time) != 0 {
		t.Errorf("11:00+02:00 and 09:00Z compare %d, want 0", a.Time.Compare(b.Time))
	}
	c, _ := ParseInstant("2026-10-09T09:00:00.000000001Z", Strict)
	if b.Time.Compare(c.Time) != -1 {
		t.Errorf("a nanosecond later does not compare later")
	}
}

func TestPrecisionStep(t *testing.T) {
	tests := []struct {
		p    Precision
		step time.Duration
		name string
	}{
		{MinutePrecision, time.Minute, "minute"},
		{SecondPrecision, time.Second, "second"},
		{FractionPrecision(1), 100 * time.Millisecond, "fraction(1)"},
		{FractionPrecision(3), time.Millisecond, "fraction(3)"},
		{FractionPrecision(9), time.Nanosecond, "fraction(9)"},
		{FractionPrecision(12), time.Nanosecond, "fraction(9)"},
	}
	for _, tt := range tests {
		if got := tt.p.Step(); got != tt.step {
			t.Errorf("%v.Step() = %v, want %v", tt.p, got, tt.step)
		}
		if got := tt.p.String(); got != tt.name {
			t.Errorf("String() = %q, want %q", got, tt.name)
		}
	}
}

// FuzzParseInstant checks, for any input, that the parser never panics, that Strict accepts
// nothing Lenient refuses, and that an accepted instant survives a UTC round trip.
func FuzzParseInstant(f *testing.F) {
	for _, s := range []string{
		"2026-10-09T15:40:03.300Z", "2026-10-09t15:40z", "2026-12-31T23:59:60+05:30",
		"2026-10-09T08:40-07:00", "2026-02-29T00:00Z", "0000-01-01T00:00:00-23:59", "2026-10-09",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		strict, serr := ParseInstant(s, Strict)
		lenient, lerr := ParseInstant(s, Lenient)
		if serr == nil && lerr != nil {
			t.Fatalf("%q: strict accepts, lenient refuses: %v", s, lerr)
		}
		if serr == nil && (!strict.Time.Equal(lenient.Time) || strict.Precision != lenient.Precision) {
			t.Fatalf("%q: the profiles disagree on an instant both accept", s)
		}
		if lerr != nil {
			var ie *InstantError
			if !errors.As(lerr, &ie) {
				t.Fatalf("%q: error %T is not an *InstantError", s, lerr)
			}
			return
		}
		back, err := ParseInstant(UTCString(lenient.Time), Strict)
		if y := lenient.Time.UTC().Year(); y >= 0 && y <= 9999 {
			if err != nil {
				t.Fatalf("%q: its UTC spelling %q is refused: %v", s, UTCString(lenient.Time), err)
			}
			if !back.Time.Equal(lenient.Time) {
				t.Fatalf("%q: round trip moved the instant", s)
			}
		}
		if _, err := Bind(tz.UTC()).Instant(s); err != nil {
			t.Fatalf("%q: the presenter refuses what the parser accepts: %v", s, err)
		}
	})
}
