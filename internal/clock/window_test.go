package clock

import (
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/clock"
	"github.com/agentfootprint/agentfootprint-go/internal/tz"
)

// TestWindowEndsAgree holds the one convention for printed windows: a window is shown from its
// first second to the moment it stops. An asked look-back stops at the moment of the question
// and a tool's declared read includes that moment (its half-open form ends one millisecond
// later); both must print the same end, in the check line the person reads and in the one the
// model reads.
func TestWindowEndsAgree(t *testing.T) {
	p := Bind(mustZone(t, la))
	c := CheckedPeriod{
		Tool: "search_logs", Against: AgainstAsked,
		Compared: rng(t, "2026-09-09T15:40:00Z", "2026-10-09T15:40:00Z"),
		Reads:    []clock.Range{rng(t, "2026-10-02T15:40:00Z", "2026-10-09T15:40:00.001Z")},
		Missing:  []clock.Range{rng(t, "2026-09-09T15:40:00Z", "2026-10-02T15:40:00Z")},
	}
	for _, a := range []Audience{ForPerson, ForModel} {
		line, ok, err := CheckLine(c, p, a)
		if err != nil || !ok {
			t.Fatalf("%s: CheckLine = %q, %v, %v", a, line, ok, err)
		}
		asked, read, found := strings.Cut(line, "; read: ")
		if !found {
			t.Fatalf("%s: no read part in %q", a, line)
		}
		const end = "–2026-10-09 08:40:00 America/Los_Angeles (UTC-07:00)"
		if !strings.HasSuffix(asked, end) || !strings.HasSuffix(read, end) {
			t.Errorf("%s: the asked and the read window must both end %q:\n%s", a, end, line)
		}
	}
}

func TestWindow(t *testing.T) {
	tests := []struct {
		name, zone, from, to, want string
	}{
		{"stops at a whole minute", la, "2026-10-09T14:40:00Z", "2026-10-09T15:40:00Z",
			"2026-10-09 07:40:00–08:40:00 America/Los_Angeles (UTC-07:00)"},
		{"an inclusive end one millisecond on prints the same", la, "2026-10-09T14:40:00Z", "2026-10-09T15:40:00.001Z",
			"2026-10-09 07:40:00–08:40:00 America/Los_Angeles (UTC-07:00)"},
		{"a day stops at the next midnight", la, "2026-10-08T07:00:00Z", "2026-10-09T07:00:00Z",
			"2026-10-08 00:00:00–2026-10-09 00:00:00 America/Los_Angeles (UTC-07:00)"},
		{"DST back, each end its own offset", la, "2026-11-01T07:00:00Z", "2026-11-01T10:00:00Z",
			"2026-11-01 00:00:00 (UTC-07:00) – 2026-11-01 02:00:00 (UTC-08:00) America/Los_Angeles"},
		{"an empty window is one instant", "UTC", "2026-10-09T15:40:00Z", "2026-10-09T15:40:00Z",
			"2026-10-09 15:40:00 UTC"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Bind(mustZone(t, tt.zone)).Window(rng(t, tt.from, tt.to))
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
	if _, err := Bind(tz.Zone{}).Window(clock.Range{}); err == nil || !strings.Contains(err.Error(), "range.from is missing") {
		t.Errorf("a zero range: err = %v, want range.from is missing", err)
	}
}
