package clock

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestDurationOf(t *testing.T) {
	good := map[string]time.Duration{
		"30s": 30 * time.Second, "30m": 30 * time.Minute, "2h": 2 * time.Hour,
		"7d": 7 * 24 * time.Hour, "1w": 7 * 24 * time.Hour, "106751d": 106751 * 24 * time.Hour,
	}
	for in, want := range good {
		got, err := DurationOf(in)
		if err != nil || got != want {
			t.Errorf("DurationOf(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	bad := map[string]bool{ // value → too long to measure
		"0h": false, "01h": false, "2H": false, "1.5h": false, "h": false, "": false, "2": false,
		"-2h": false, "2 h": false, "２h": false,
		"106752d": true, "99999999999999999999h": true, "9223372036854775808s": true,
	}
	for in, unmeasurable := range bad {
		_, err := DurationOf(in)
		var ve *ValueError
		if !errors.As(err, &ve) {
			t.Errorf("DurationOf(%q): want a *ValueError, got %v", in, err)
			continue
		}
		if errors.Is(err, ErrUnmeasurable) != unmeasurable {
			t.Errorf("DurationOf(%q): unmeasurable = %v, want %v (%v)", in, !unmeasurable, unmeasurable, err)
		}
	}
}

func TestMeaning(t *testing.T) {
	now := time.Date(2026, 10, 9, 15, 40, 0, 0, time.UTC)
	tests := []struct {
		spelling, value string
		from, to        string
	}{
		{SpellingLookback, "60m", "2026-10-09T14:40:00Z", "2026-10-09T15:40:00Z"},
		{SpellingLookback, "30d", "2026-09-09T15:40:00Z", "2026-10-09T15:40:00Z"},
		{SpellingSignedLookback, "-40m", "2026-10-09T15:00:00Z", "2026-10-09T15:40:00Z"},
		{SpellingISORange, "2026-10-09T08:00:00-07:00..2026-10-09T08:40:59-07:00", "2026-10-09T15:00:00Z", "2026-10-09T15:41:00Z"},
		{SpellingISORange, "2026-10-09T08:00-07:00..2026-10-09T08:40-07:00", "2026-10-09T15:00:00Z", "2026-10-09T15:41:00Z"},
		{SpellingISORange, "2026-10-09T15:00:00Z..2026-10-09T15:40:00.50Z", "2026-10-09T15:00:00Z", "2026-10-09T15:40:00.51Z"},
		{SpellingISORange, "2026-10-09T15:00:00Z..2026-10-09T15:00:00Z", "2026-10-09T15:00:00Z", "2026-10-09T15:00:01Z"},
	}
	for _, tt := range tests {
		r, err := Meaning(tt.spelling, tt.value, now)
		if err != nil {
			t.Errorf("Meaning(%s, %q): %v", tt.spelling, tt.value, err)
			continue
		}
		if UTCString(r.From) != tt.from || UTCString(r.To) != tt.to {
			t.Errorf("Meaning(%s, %q) = [%s, %s), want [%s, %s)", tt.spelling, tt.value, UTCString(r.From), UTCString(r.To), tt.from, tt.to)
		}
	}
	refused := []struct{ spelling, value, reason string }{
		{SpellingLookback, "-40m", "whole number"},
		{SpellingSignedLookback, "40m", "starts with '-'"},
		{SpellingLookback, "999999999w", "too long"},
		{SpellingISORange, "2026-10-09T15:00:00Z", "one '..'"},
		{SpellingISORange, "2026-10-09T15:00:00Z..2026-10-09T15:00:00Z..2026-10-09T16:00:00Z", "one '..'"},
		{SpellingISORange, "2026-10-09T16:00:00Z..2026-10-09T15:00:00Z", "after its end"},
		{SpellingISORange, "2026-10-09t15:00:00Z..2026-10-09T16:00:00Z", "start is not a strict"},
		{SpellingISORange, "2026-10-09T15:00:00Z..2026-10-09T24:00:00Z", "end is not a strict"},
		{"calendar", "today", "unknown spelling"},
	}
	for _, tt := range refused {
		_, err := Meaning(tt.spelling, tt.value, now)
		if err == nil || !strings.Contains(err.Error(), tt.reason) {
			t.Errorf("Meaning(%s, %q): error %v, want one mentioning %q", tt.spelling, tt.value, err, tt.reason)
		}
	}
}

// FuzzMeaning checks the measuring door never panics and that every range it returns is well
// formed and, for a look-back, ends at the instant given.
func FuzzMeaning(f *testing.F) {
	for _, s := range []string{"60m", "-2h", "2026-10-09T15:00:00Z..2026-10-09T15:40:00.5Z", "999999999999w"} {
		f.Add(s)
	}
	now := time.Date(2026, 10, 9, 15, 40, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, v string) {
		for _, sp := range []string{SpellingLookback, SpellingSignedLookback, SpellingISORange} {
			r, err := Meaning(sp, v, now)
			if err != nil {
				continue
			}
			if err := r.Check(); err != nil {
				t.Fatalf("%s %q: %v", sp, v, err)
			}
			if sp != SpellingISORange && !r.To.Equal(now) {
				t.Fatalf("%s %q ends at %v", sp, v, r.To)
			}
		}
	})
}
