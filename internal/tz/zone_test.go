package tz

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/internal/textlen"
)

func TestParseZoneAccepts(t *testing.T) {
	tests := []struct {
		name   string
		offset string // the tag's offset at 2026-01-15T12:00Z, "" for a UTC name
	}{
		{"America/Los_Angeles", "UTC-08:00"},
		{"Asia/Kathmandu", "UTC+05:45"},
		{"US/Pacific", "UTC-08:00"},
		{"Etc/GMT+5", "UTC-05:00"},
		{"Etc/UTC", ""},
		{"UTC", ""},
		{"America/Argentina/Buenos_Aires", "UTC-03:00"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			z, err := Parse(tt.name)
			if err != nil {
				t.Fatalf("Parse(%q) refused: %v", tt.name, err)
			}
			if z.Name() != tt.name {
				t.Errorf("Name() = %q, want %q (recorded as written)", z.Name(), tt.name)
			}
			want := strings.TrimPrefix(tt.offset, "UTC")
			if want == "" {
				want = "+00:00"
			}
			if got := time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC).In(z.Location()).Format("-07:00"); got != want {
				t.Errorf("offset at 2026-01-15T12:00Z = %s, want %s", got, want)
			}
		})
	}
}

func TestParseZoneRefuses(t *testing.T) {
	tests := []struct {
		in   string
		kind Refusal
	}{
		{"EST", ZoneAbbreviation},
		{"CET", ZoneAbbreviation},
		{"MST", ZoneAbbreviation},
		{"GMT", ZoneAbbreviation},
		{"PST", ZoneAbbreviation},
		{"EST5EDT", ZoneAbbreviation},
		{"Zulu", ZoneAbbreviation},
		{"+05:30", ZoneOffset},
		{"-0800", ZoneOffset},
		{"UTC+2", ZoneOffset},
		{"GMT+1", ZoneOffset},
		{"Local", ZoneLocal},
		{"", ZoneEmpty},
		{"america/los_angeles", ZoneNotInDatabase},
		{"America/los_angeles", ZoneNotInDatabase},
		{"Mars/Olympus", ZoneNotInDatabase},
		{"America/Los_Angeles/", ZoneNotInDatabase},
		{"../etc/passwd", ZoneNotInDatabase},
		{"America/" + strings.Repeat("X", 60), ZoneTooLong},
		{"utc", ZoneAbbreviation},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			z, err := Parse(tt.in)
			if err == nil {
				t.Fatalf("Parse(%q) = %v, want a refusal", tt.in, z.Name())
			}
			var ze *Error
			if !errors.As(err, &ze) {
				t.Fatalf("error %T is not a *Error: %v", err, err)
			}
			if ze.Kind != tt.kind {
				t.Errorf("Kind = %v, want %v (%v)", ze.Kind, tt.kind, err)
			}
			msg := err.Error()
			if tt.in != "" && !strings.Contains(msg, tt.in) {
				t.Errorf("message %q does not name the input", msg)
			}
			if !strings.Contains(msg, "America/New_York") {
				t.Errorf("message %q gives no example", msg)
			}
			if !z.IsZero() {
				t.Errorf("a refused zone came back non-zero: %q", z.Name())
			}
		})
	}
}

func TestZoneErrorClipsLongInput(t *testing.T) {
	in := strings.Repeat("é", 200)
	_, err := Parse(in)
	var ze *Error
	if !errors.As(err, &ze) {
		t.Fatalf("want *Error, got %v", err)
	}
	if len(ze.Input) > textlen.ClipInputBytes+len("…") {
		t.Errorf("Input is %d bytes, want at most %d", len(ze.Input), textlen.ClipInputBytes+len("…"))
	}
	if !strings.HasSuffix(ze.Input, "…") || !strings.HasPrefix(in, strings.TrimSuffix(ze.Input, "…")) {
		t.Errorf("Input %q is not a marked prefix of the value", ze.Input)
	}
}

func TestParseZoneCachesTheLocation(t *testing.T) {
	a := mustZone(t, "Europe/Berlin")
	b := mustZone(t, "Europe/Berlin")
	if a.Location() != b.Location() {
		t.Errorf("two parses of one name loaded two locations")
	}
}

func TestZeroZone(t *testing.T) {
	var z Zone
	if !z.IsZero() || z.String() != "UTC" || z.Location() != time.UTC {
		t.Errorf("zero Zone: IsZero %v, String %q, Location %v", z.IsZero(), z.String(), z.Location())
	}
	if _, err := z.MarshalText(); err == nil {
		t.Errorf("the zero Zone marshaled a name")
	}
}

func TestZoneText(t *testing.T) {
	var z Zone
	if err := z.UnmarshalText([]byte("Asia/Kolkata")); err != nil {
		t.Fatal(err)
	}
	b, err := z.MarshalText()
	if err != nil || string(b) != "Asia/Kolkata" {
		t.Errorf("MarshalText = %q, %v", b, err)
	}
	if err := z.UnmarshalText([]byte("IST")); err == nil {
		t.Errorf("UnmarshalText accepted an abbreviation")
	}
}

// TestEveryListedNameLoads checks the generated list against the embedded database: every
// name the shape rule lets through must load.
func TestEveryListedNameLoads(t *testing.T) {
	n := 0
	for _, name := range tzNames {
		if !zoneShape.MatchString(name) || len(name) > maxZoneLen {
			continue
		}
		if _, err := Parse(name); err != nil {
			t.Errorf("listed name %q refused: %v", name, err)
		}
		n++
	}
	if n < 400 {
		t.Errorf("only %d Area/Location names listed; the generated list looks truncated", n)
	}
}

func TestZoneRefusalString(t *testing.T) {
	got := []string{ZoneEmpty.String(), ZoneOffset.String(), Refusal(99).String()}
	want := []string{"empty", "offset", "Refusal(99)"}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("String() = %q, want %q", got[i], want[i])
		}
	}
}
