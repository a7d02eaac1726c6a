// Tests of the period grammar: which values each spelling accepts, the
// parts of a parsed value, conversion between the lookbacks, and a fuzz of
// the round trip.

package periodspell

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestPeriodGrammar(t *testing.T) {
	tests := []struct {
		value    string
		spelling string
		units    string
		ok       bool
	}{
		// Which values each spelling accepts, and which it does not.
		{"30m", Lookback, "", true},
		{"24h", Lookback, "", true},
		{"2w", Lookback, "", true},
		{"7d", Lookback, "", true},
		{"0h", Lookback, "", false},
		{"02h", Lookback, "", false},
		{"01h", Lookback, "", false},
		{"2H", Lookback, "", false},
		{"30s", Lookback, "", false},
		{"30s", Lookback, "smhdw", true},
		{"2 h", Lookback, "", false},
		{"1.5h", Lookback, "", false},
		{" 2h", Lookback, "", false},
		{"2h ", Lookback, "", false},
		{"h", Lookback, "", false},
		{"", Lookback, "", false},
		{"-24h", Lookback, "", false},
		{"2d", Lookback, "h", false},
		{"123456789012345678901234567890m", Lookback, "", true},
		{"-24h", SignedLookback, "", true},
		{"-40m", SignedLookback, "", true},
		{"24h", SignedLookback, "", false},
		{"--24h", SignedLookback, "", false},
		{"-0h", SignedLookback, "", false},
		{"-", SignedLookback, "", false},
		{"2026-10-09T00:00:00Z..2026-10-10T00:00:00Z", ISORange, "", true},
		{"2026-10-09T08:00:00-07:00..2026-10-09T08:40:59-07:00", ISORange, "", true},
		{"2026-10-09T08:00Z..2026-10-09T08:40Z", ISORange, "", true},
		{"2026-10-09T08:00:00.123456789Z..2026-10-09T08:40:00.5+05:30", ISORange, "", true},
		{"2026-10-10T00:00:00Z..2026-10-09T00:00:00Z", ISORange, "", true}, // order not checked
		{"2024-02-29T00:00:00Z..2024-03-01T00:00:00Z", ISORange, "", true},
		{"2026-10-09T00:00:00z..2026-10-10T00:00:00Z", ISORange, "", false},
		{"2026-10-09t00:00:00Z..2026-10-10T00:00:00Z", ISORange, "", false},
		{"2026-10-09T24:00:00Z..2026-10-10T00:00:00Z", ISORange, "", false},
		{"2026-10-09T23:59:60Z..2026-10-10T00:00:00Z", ISORange, "", false},
		{"2026-10-09T23:60:00Z..2026-10-10T00:00:00Z", ISORange, "", false},
		{"2025-02-29T00:00:00Z..2025-03-01T00:00:00Z", ISORange, "", false},
		{"2026-04-31T00:00:00Z..2026-05-01T00:00:00Z", ISORange, "", false},
		{"2026-13-01T00:00:00Z..2026-05-01T00:00:00Z", ISORange, "", false},
		{"2026-10-09T00:00:00..2026-10-10T00:00:00Z", ISORange, "", false},
		{"2026-10-09..2026-10-10", ISORange, "", false},
		{"2026-10-09 00:00:00Z..2026-10-10T00:00:00Z", ISORange, "", false},
		{"2026-10-09T00:00:00Z...2026-10-10T00:00:00Z", ISORange, "", false},
		{"2026-10-09T00:00:00Z..2026-10-10T00:00:00Z..2026-10-11T00:00:00Z", ISORange, "", false},
		{"2026-10-09T00:00:00Z", ISORange, "", false},
		{"2026-10-09T00:00:00.Z..2026-10-10T00:00:00Z", ISORange, "", false},
		{"2026-10-09T00:00:00.1234567890Z..2026-10-10T00:00:00Z", ISORange, "", false},
		{"2026-10-09T00:00:00+24:00..2026-10-10T00:00:00Z", ISORange, "", false},
		{"2026-10-09T00:00:00+23:59..2026-10-10T00:00:00-00:00", ISORange, "", true},
		{"2026-10-09T00:00:00+0100..2026-10-10T00:00:00Z", ISORange, "", false},
		{"2h", "duration", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.spelling+" "+tt.value, func(t *testing.T) {
			v, err := Parse(tt.value, tt.spelling, tt.units)
			if (err == nil) != tt.ok {
				t.Fatalf("Parse(%q, %s, %q) err = %v, want ok=%v", tt.value, tt.spelling, tt.units, err, tt.ok)
			}
			if got := ParsesUnder(tt.value, tt.spelling, tt.units); got != tt.ok {
				t.Fatalf("ParsesUnder = %v, want %v", got, tt.ok)
			}
			if !tt.ok {
				if !errors.Is(err, ErrSyntax) {
					t.Fatalf("error %v does not wrap ErrSyntax", err)
				}
				return
			}
			if s := v.String(); s != tt.value {
				t.Fatalf("String() = %q, want the parsed text %q", s, tt.value)
			}
		})
	}
}

func TestPeriodValueParts(t *testing.T) {
	v, err := Parse("-40m", SignedLookback, "")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Value{Spelling: SignedLookback, Count: "40", Unit: 'm'}, v); diff != "" {
		t.Fatalf("value (-want +got):\n%s", diff)
	}
	durations := []struct {
		value string
		want  time.Duration
		ok    bool
	}{
		{"30s", 30 * time.Second, true},
		{"40m", 40 * time.Minute, true},
		{"2h", 2 * time.Hour, true},
		{"7d", 7 * 24 * time.Hour, true},
		{"2w", 14 * 24 * time.Hour, true},
		{"15250w", 15250 * 7 * 24 * time.Hour, true},
		{"15251w", 0, false},
		{"9223372036s", 9223372036 * time.Second, true},
		{"9223372037s", 0, false},
		{"123456789012345678901234567890m", 0, false},
	}
	for _, d := range durations {
		v, err := Parse(d.value, Lookback, "smhdw")
		if err != nil {
			t.Fatal(err)
		}
		got, ok := v.Duration()
		if got != d.want || ok != d.ok {
			t.Errorf("Duration(%s) = %v, %v; want %v, %v", d.value, got, ok, d.want, d.ok)
		}
	}
	r, err := Parse("2026-10-09T08:00:00-07:00..2026-10-09T08:40:59.5Z", ISORange, "")
	if err != nil {
		t.Fatal(err)
	}
	from, to, ok := r.Ends()
	if !ok || !from.Equal(time.Date(2026, 10, 9, 15, 0, 0, 0, time.UTC)) || !to.Equal(time.Date(2026, 10, 9, 8, 40, 59, 5e8, time.UTC)) {
		t.Fatalf("Ends() = %v, %v, %v", from, to, ok)
	}
	if _, ok := r.Duration(); ok {
		t.Fatalf("an iso-range has no lookback duration")
	}
	if _, _, ok := v.Ends(); ok {
		t.Fatalf("a lookback has no ends")
	}
}

func TestConvertSpelling(t *testing.T) {
	tests := []struct {
		value    string
		from, to string
		want     string
		ok       bool
	}{
		{"24h", Lookback, SignedLookback, "-24h", true},
		{"-24h", SignedLookback, Lookback, "24h", true},
		{"30s", Lookback, SignedLookback, "-30s", true},
		{"24h", Lookback, Lookback, "24h", true},
		{"24h", SignedLookback, Lookback, "", false},
		{"2h", Lookback, ISORange, "", false},
		{"2026-10-09T00:00:00Z..2026-10-10T00:00:00Z", ISORange, Lookback, "", false},
		{"2026-10-09T00:00:00Z..2026-10-10T00:00:00Z", ISORange, ISORange, "2026-10-09T00:00:00Z..2026-10-10T00:00:00Z", true},
		{"2h", "hours", Lookback, "", false},
	}
	for _, tt := range tests {
		got, err := Convert(tt.value, tt.from, tt.to)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("Convert(%q, %s, %s) = %q, %v; want %q ok=%v", tt.value, tt.from, tt.to, got, err, tt.want, tt.ok)
		}
	}
}

func FuzzPeriodGrammar(f *testing.F) {
	for _, s := range []string{"30m", "24h", "-24h", "0h", "02h", "2H", "30s", "2 h", "-", "",
		"2026-10-09T00:00:00Z..2026-10-10T00:00:00Z", "2026-10-09T08:00-07:00..2026-10-09T08:40:59.123Z",
		"2026-02-29T00:00:00Z..2026-10-10T00:00:00Z", "2026-10-09T24:00:00Z..x", "....", "9999999999999999999999w"} {
		f.Add(s, "smhdw")
		f.Add(s, "")
	}
	spellings := []string{Lookback, SignedLookback, ISORange}
	f.Fuzz(func(t *testing.T, s, units string) {
		if len(units) > 5 {
			units = units[:5]
		}
		for _, sp := range spellings {
			v, err := Parse(s, sp, units)
			if err != nil {
				if ParsesUnder(s, sp, units) {
					t.Fatalf("ParsesUnder disagrees with ParsePeriod on %q", s)
				}
				continue
			}
			// Format gives back exactly the parsed text, and it parses
			// to the same value again.
			if got := v.String(); got != s {
				t.Fatalf("String() = %q after parsing %q as %s", got, s, sp)
			}
			again, err := Parse(v.String(), sp, units)
			if err != nil || again != v {
				t.Fatalf("round trip of %q as %s: %+v, %v", s, sp, again, err)
			}
			switch sp {
			case Lookback, SignedLookback:
				if strings.ContainsAny(v.Count[:1], "0") || v.Count == "" {
					t.Fatalf("count %q of %q", v.Count, s)
				}
				other := SignedLookback
				if sp == SignedLookback {
					other = Lookback
				}
				conv, err := Convert(s, sp, other)
				if err != nil {
					t.Fatalf("Convert(%q): %v", s, err)
				}
				back, err := Convert(conv, other, sp)
				if err != nil || back != s {
					t.Fatalf("conversion round trip of %q: %q, %v", s, back, err)
				}
				if d, ok := v.Duration(); ok && d <= 0 {
					t.Fatalf("Duration(%q) = %v", s, d)
				}
			case ISORange:
				if _, _, ok := v.Ends(); !ok {
					t.Fatalf("Ends() failed for accepted %q", s)
				}
			}
		}
	})
}

// TestISORangeNamesTheFault: an iso-range end that carries its zone but is invalid is refused for
// what is wrong with it.
func TestISORangeNamesTheFault(t *testing.T) {
	for _, c := range []struct{ value, want string }{
		{"2026-02-29T00:00:00Z..2026-03-01T00:00:00Z", "start is not a strict instant such as 2026-10-09T00:00:00Z: that day does not exist: 2026-02 has 28 days"},
		{"2026-03-01T00:00:00Z..2026-03-01T24:00:00Z", "end is not a strict instant such as 2026-10-10T00:00:00Z: the hour must be 00 to 23"},
		{"2026-03-01T00:00:00.1234567891Z..2026-03-02T00:00:00Z", "1 to 9 digits"},
		{"2026-03-01T00:00:00..2026-03-02T00:00:00Z", "the zone is missing"},
	} {
		_, err := Parse(c.value, ISORange, "")
		if !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", c.value, err)
		}
	}
}

func BenchmarkParsePeriod(b *testing.B) {
	inputs := []struct {
		s  string
		sp string
	}{
		{"24h", Lookback},
		{"-40m", SignedLookback},
		{"2026-10-09T08:00:00-07:00..2026-10-09T08:40:59.123Z", ISORange},
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, in := range inputs {
			if !ParsesUnder(in.s, in.sp, "") {
				b.Fatal(in.s)
			}
		}
	}
}
