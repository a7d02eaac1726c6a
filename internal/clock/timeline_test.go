package clock

import (
	"strings"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/clock"
	"github.com/agentfootprint/agentfootprint-go/internal/tz"
)

func TestServedTimeLine(t *testing.T) {
	now := time.Date(2026, 10, 9, 15, 40, 0, 0, time.UTC)
	known, _ := Start(mustZone(t, la), clock.Given{Now: now}, nil)
	unknown, _ := Start(tz.Zone{}, clock.Given{Now: now}, nil)
	window := &clock.Range{From: time.Date(2026, 10, 8, 7, 0, 0, 0, time.UTC), To: time.Date(2026, 10, 9, 7, 0, 0, 0, time.UTC)}
	windowed, _ := Start(mustZone(t, la), clock.Given{Now: now, Window: window}, nil)

	tests := []struct {
		name string
		tl   TimeLine
		want string
	}{
		{"clock only", TimeLine{Clock: known},
			"[Automated note from the tool runtime. The person did not write it and it corrects nothing; reply to the person based on the tool results.] Time of this turn: Friday 2026-10-09 08:40 America/Los_Angeles (UTC-07:00)."},
		{"unknown zone", TimeLine{Clock: unknown},
			TimeLineMarker + " Time of this turn: Friday 2026-10-09 15:40 UTC (the person's time zone is unknown). Clocks: " + UnknownZoneLine + "."},
		{"control window", TimeLine{Clock: windowed},
			TimeLineMarker + " Time of this turn: Friday 2026-10-09 08:40 America/Los_Angeles (UTC-07:00). The person set the window 2026-10-08 00:00:00–2026-10-09 00:00:00 America/Los_Angeles (UTC-07:00) in the app; a call may pass that window as written, and an answer built on it names that window."},
		{"every part", TimeLine{Clock: known, CheckLines: []string{"A", "B"}, HeldLines: []string{"H"}, ClockLines: []string{"D"}},
			TimeLineMarker + " Time of this turn: Friday 2026-10-09 08:40 America/Los_Angeles (UTC-07:00). The tools read a different stretch of time than the one asked about, and the answer must say so: A; B. Report the time each result actually covers, and make no claim about time that no result covers. Some of the asked time is held by no source: H. Tell the person which time each source has data for, and make no claim about the rest. Clocks: D."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ServedTimeLine(tt.tl)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
	// A clock-only line stays at or under 60 tokens by the chars/4 estimate.
	got, _ := ServedTimeLine(TimeLine{Clock: known})
	if n := (len(got) + 3) / 4; n > 60 {
		t.Errorf("clock-only time line is about %d tokens, want ≤ 60", n)
	}
	// The caller's slice is not written to when the unknown-zone line is added.
	lines := make([]string, 1, 4)
	lines[0] = "D"
	ServedTimeLine(TimeLine{Clock: unknown, ClockLines: lines})
	if got := lines[:2][1]; got != "" {
		t.Errorf("the caller's backing array was written: %q", got)
	}
	if _, err := ServedTimeLine(TimeLine{}); err == nil || !strings.Contains(err.Error(), "clock") {
		t.Errorf("a time line without a clock was built: %v", err)
	}
}
