package instant

import (
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	good := []struct {
		in     string
		p      Profile
		want   string
		secs   bool
		digits int
	}{
		{"2026-09-26T09:00Z", Strict, "2026-09-26T09:00:00Z", false, 0},
		{"2026-09-26T11:00:00+02:00", Strict, "2026-09-26T09:00:00Z", true, 0},
		{"2026-09-26t09:00:00.5z", Lenient, "2026-09-26T09:00:00.5Z", true, 1},
		{"2016-12-31T23:59:60Z", Lenient, "2017-01-01T00:00:00Z", true, 0},
		{"2024-02-29T00:00:00.123456789-00:00", Strict, "2024-02-29T00:00:00.123456789Z", true, 9},
	}
	for _, c := range good {
		got, fault := Parse(c.in, c.p)
		if fault != "" {
			t.Errorf("%s: %s", c.in, fault)
			continue
		}
		if s := got.Time.UTC().Format(time.RFC3339Nano); s != c.want || got.HasSeconds != c.secs || got.FractionDigits != c.digits {
			t.Errorf("%s: %s %v %d", c.in, s, got.HasSeconds, got.FractionDigits)
		}
	}
	bad := []struct {
		in    string
		p     Profile
		fault string
	}{
		{"2026-02-29T09:00:00Z", Lenient, "that day does not exist: 2026-02 has 28 days"},
		{"1900-02-29T00:00Z", Lenient, "1900-02 has 28 days"},
		{"2026-10-00T00:00Z", Lenient, "that day does not exist"},
		{"2026-09-26T24:00:00Z", Lenient, "the hour must be 00 to 23"},
		{"2026-09-26T09:00:00.1234567890Z", Lenient, "1 to 9 digits"},
		{"2026-09-26T09:00:60Z", Strict, "00 to 59"},
		{"2026-09-26t09:00Z", Strict, "upper-case T"},
		{"2026-09-26T09:00z", Strict, "upper-case Z"},
		{"2026-09-26T09:00:00", Lenient, "the zone is missing"},
		{"2026-09-26", Lenient, "a date alone"},
		{"1760024400", Lenient, "too short"},
		{strings.Repeat("2", 40), Lenient, "too long"},
	}
	for _, c := range bad {
		if _, fault := Parse(c.in, c.p); !strings.Contains(fault, c.fault) {
			t.Errorf("%s (%d): fault %q, want %q", c.in, c.p, fault, c.fault)
		}
	}
}

func TestUnitLength(t *testing.T) {
	for i, want := range []time.Duration{time.Second, time.Minute, time.Hour, 24 * time.Hour, 7 * 24 * time.Hour} {
		if got, ok := UnitLength(UnitLetters[i]); !ok || got != want {
			t.Errorf("%c: %v %v", UnitLetters[i], got, ok)
		}
	}
	if _, ok := UnitLength('y'); ok {
		t.Error("y is a unit")
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"2026-09-26T09:00:00Z", "2016-12-31T23:59:60Z", "2026-09-26t08:00:00.123456789+23:59", "yesterday", "2026-02-30T00:00:00Z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, p := range []Profile{Lenient, Strict} {
			got, fault := Parse(s, p)
			if fault != "" && !got.Time.IsZero() {
				t.Fatalf("%q: fault %q with time %v", s, fault, got.Time)
			}
			if fault == "" && len(s) > MaxLen {
				t.Fatalf("%q accepted past MaxLen", s)
			}
		}
		// Strict accepts nothing Lenient refuses.
		if _, f := Parse(s, Strict); f == "" {
			if _, l := Parse(s, Lenient); l != "" {
				t.Fatalf("%q strict yes, lenient no: %s", s, l)
			}
		}
	})
}
