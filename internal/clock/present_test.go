package clock

import (
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/clock"
	"github.com/agentfootprint/agentfootprint-go/internal/tz"
)

// mustZone loads a zone or stops the test.
func mustZone(t testing.TB, name string) tz.Zone {
	t.Helper()
	z, err := tz.Parse(name)
	if err != nil {
		t.Fatalf("ParseZone(%q): %v", name, err)
	}
	return z
}

// at parses a strict instant or stops the test.
func at(t testing.TB, s string) time.Time {
	t.Helper()
	in, err := ParseInstant(s, Strict)
	if err != nil {
		t.Fatalf("ParseInstant(%q): %v", s, err)
	}
	return in.Time
}

const la = "America/Los_Angeles"

// TestGoldens pins every presentation golden byte for byte.
func TestGoldens(t *testing.T) {
	type call struct {
		kind     string // span, instant, range
		from, to string
		grain    Grain
	}
	tests := []struct {
		name string
		zone string
		call call
		want string
	}{
		{"span same date", la, call{"span", "2026-10-09T15:00:00Z", "2026-10-09T15:40:00Z", ""},
			"2026-10-09 08:00–08:40 America/Los_Angeles (UTC-07:00)"},
		{"span cross date half-hour zone", "Asia/Kolkata", call{"span", "2026-10-09T17:30:00Z", "2026-10-09T19:30:00Z", ""},
			"2026-10-09 23:00–2026-10-10 01:00 Asia/Kolkata (UTC+05:30)"},
		{"span across DST fall back", la, call{"span", "2026-11-01T08:00:00Z", "2026-11-01T09:30:00Z", ""},
			"2026-11-01 01:00 (UTC-07:00) – 2026-11-01 01:30 (UTC-08:00) America/Los_Angeles"},
		{"span in UTC", "UTC", call{"span", "2026-10-09T15:00:00Z", "2026-10-09T15:40:00Z", ""},
			"2026-10-09 15:00–15:40 UTC"},
		{"instant with seconds", la, call{"instant", "2026-10-09T15:40:03Z", "", ""},
			"2026-10-09 08:40:03 America/Los_Angeles (UTC-07:00)"},
		{"range one day to the second", la, call{"range", "2026-10-08T07:00:00Z", "2026-10-09T07:00:00Z", GrainSecond},
			"2026-10-08 00:00:00–23:59:59 America/Los_Angeles (UTC-07:00)"},
		{"range cross date to the second", la, call{"range", "2026-10-08T07:00:00Z", "2026-10-09T15:40:00.001Z", GrainSecond},
			"2026-10-08 00:00:00–2026-10-09 08:40:00 America/Los_Angeles (UTC-07:00)"},
		{"range one day at day grain", la, call{"range", "2026-10-09T07:00:00Z", "2026-10-10T07:00:00Z", GrainDay},
			"2026-10-09 America/Los_Angeles (UTC-07:00)"},
		{"range two days at day grain", la, call{"range", "2026-10-08T07:00:00Z", "2026-10-10T07:00:00Z", GrainDay},
			"2026-10-08 – 2026-10-09 America/Los_Angeles (UTC-07:00)"},
		{"span with milliseconds", la, call{"span", "2026-10-01T16:22:44.300Z", "2026-10-01T17:02:44.300Z", ""},
			"2026-10-01 09:22:44.300–10:02:44.300 America/Los_Angeles (UTC-07:00)"},
		{"instant in local mean time", la, call{"instant", "1880-01-01T12:00:00Z", "", ""},
			"1880-01-01 04:07:02 America/Los_Angeles (UTC-07:52:58)"},
		{"span in a quarter-hour zone", "Asia/Kathmandu", call{"span", "2026-10-09T03:00Z", "2026-10-09T04:00Z", ""},
			"2026-10-09 08:45–09:45 Asia/Kathmandu (UTC+05:45)"},
		{"span at a zero offset that is not UTC", "Europe/London", call{"span", "2026-01-15T12:00Z", "2026-01-15T13:00Z", ""},
			"2026-01-15 12:00–13:00 Europe/London (UTC+00:00)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Bind(mustZone(t, tt.zone))
			var got string
			var err error
			switch tt.call.kind {
			case "span":
				got, err = p.Span(tt.call.from, tt.call.to)
			case "instant":
				got, err = p.Instant(tt.call.from)
			case "range":
				got, err = p.Range(clock.Range{From: at(t, tt.call.from), To: at(t, tt.call.to)}, tt.call.grain)
			}
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}
