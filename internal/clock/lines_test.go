package clock

import (
	"strings"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/clock"
	"github.com/agentfootprint/agentfootprint-go/internal/tz"
	"github.com/google/go-cmp/cmp"
)

func TestPeriodLine(t *testing.T) {
	laP := Bind(mustZone(t, la))
	queried := SpanText{From: "2026-09-26T09:00:00Z", To: "2026-09-26T10:00:00Z"}
	held := &SpanText{From: "2026-08-27T02:00:00Z", To: "2026-09-26T02:00:00Z"}
	tests := []struct {
		name string
		p    Presentation
		d    DeclaredPeriod
		want string
	}{
		{"the look-back example", laP, DeclaredPeriod{Queried: queried, Held: held, ReadAt: "2026-09-26T10:00:03Z"},
			"backup_runs queried 2026-09-26 02:00–03:00 America/Los_Angeles (UTC-07:00); the store holds 2026-08-26 19:00–2026-09-25 19:00 America/Los_Angeles (UTC-07:00); read at 2026-09-26 03:00:03 America/Los_Angeles (UTC-07:00)"},
		{"no read time", laP, DeclaredPeriod{Queried: queried, Held: held},
			"backup_runs queried 2026-09-26 02:00–03:00 America/Los_Angeles (UTC-07:00); the store holds 2026-08-26 19:00–2026-09-25 19:00 America/Los_Angeles (UTC-07:00)"},
		{"held unknown", laP, DeclaredPeriod{Queried: queried},
			"backup_runs queried 2026-09-26 02:00–03:00 America/Los_Angeles (UTC-07:00); " + HeldUnknownWords},
		{"zone unknown renders UTC", Bind(tz.Zone{}), DeclaredPeriod{Queried: queried, Held: held},
			"backup_runs queried 2026-09-26 09:00–10:00 UTC; the store holds 2026-08-27 02:00–2026-09-26 02:00 UTC"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := PeriodLine("backup_runs", tt.d, tt.p)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
	bad := []struct {
		d    DeclaredPeriod
		want string
	}{
		{DeclaredPeriod{Queried: SpanText{From: "2026-09-26", To: "2026-09-26T10:00:00Z"}}, "queried"},
		{DeclaredPeriod{Queried: queried, Held: &SpanText{From: "2026-09-26T10:00:00Z", To: "2026-09-26T09:00:00Z"}}, "held"},
		{DeclaredPeriod{Queried: queried, ReadAt: "now"}, "readAt"},
	}
	for _, b := range bad {
		if _, err := PeriodLine("backup_runs", b.d, laP); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%+v: error %v, want one naming %q", b.d, err, b.want)
		}
	}
}

func TestHeldLine(t *testing.T) {
	p := Bind(mustZone(t, la))
	h := HeldSpan{
		Queried: SpanText{From: "2026-09-30T13:00:00Z", To: "2026-09-30T18:59:50Z"},
		Held:    SpanText{From: "2026-10-01T16:22:44.300Z", To: "2026-10-01T17:02:44.300Z"},
	}
	got, err := HeldLine("pscale_client_health", h, p)
	if err != nil {
		t.Fatal(err)
	}
	want := "pscale_client_health was asked about 2026-09-30 06:00:00–11:59:50 America/Los_Angeles (UTC-07:00); its source has data only for 2026-10-01 09:22:44.300–10:02:44.300 America/Los_Angeles (UTC-07:00), none of the asked time"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	h.Partly = true
	got, _ = HeldLine("pscale_client_health", h, p)
	if !strings.HasSuffix(got, ", only part of the asked time") {
		t.Errorf("partly held: %q", got)
	}
	h.Held.To = "bad"
	if _, err := HeldLine("pscale_client_health", h, p); err == nil || !strings.Contains(err.Error(), "held") {
		t.Errorf("a malformed held span rendered: %v", err)
	}
}

func TestClockLines(t *testing.T) {
	ny := SourceClock{Tool: "billing", Zone: "America/New_York"}
	berlin := SourceClock{Tool: "shipping", Zone: "Europe/Berlin"}
	tests := []struct {
		name    string
		sources []SourceClock
		a       Audience
		want    []string
	}{
		{"none", nil, ForPerson, nil},
		{"one source, person", []SourceClock{ny, ny}, ForPerson, []string{
			"billing reports wall-clock times in America/New_York, as the tool declares; the library compares instants, not wall times",
		}},
		{"one source, model", []SourceClock{ny}, ForModel, nil},
		{"two zones, person", []SourceClock{ny, berlin, ny}, ForPerson, []string{
			"billing reports wall-clock times in America/New_York, as the tool declares; the library compares instants, not wall times",
			"shipping reports wall-clock times in Europe/Berlin, as the tool declares; the library compares instants, not wall times",
			"the sources use different clocks (America/New_York, Europe/Berlin); the library compares instants, not wall times",
		}},
		{"two zones, model", []SourceClock{ny, berlin}, ForModel, []string{
			"the sources use different clocks (America/New_York, Europe/Berlin); the library compares instants, not wall times",
		}},
		{"two tools, one zone", []SourceClock{ny, {Tool: "refunds", Zone: "America/New_York"}}, ForModel, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, ClockLines(tt.sources, tt.a)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestClockSentence(t *testing.T) {
	now := time.Date(2026, 10, 9, 15, 40, 59, 999_000_000, time.UTC)
	known, _ := Start(mustZone(t, la), clock.Given{Now: now}, nil)
	unknown, _ := Start(tz.Zone{}, clock.Given{Now: now}, nil)
	kolkata, _ := Start(tz.Zone{}, clock.Given{Now: now, Zone: "Asia/Kolkata"}, nil)
	tests := []struct {
		c    Clock
		want string
	}{
		{known, "Time of this turn: Friday 2026-10-09 08:40 America/Los_Angeles (UTC-07:00)."},
		{unknown, "Time of this turn: Friday 2026-10-09 15:40 UTC (the person's time zone is unknown)."},
		{kolkata, "Time of this turn: Friday 2026-10-09 21:10 Asia/Kolkata (UTC+05:30)."},
	}
	for _, tt := range tests {
		if got := ClockSentence(tt.c); got != tt.want {
			t.Errorf("got  %q\nwant %q", got, tt.want)
		}
		// The clock sentence stays well under 73 tokens by the chars/4 estimate.
		if n := len(ClockSentence(tt.c)) / 4; n > 30 {
			t.Errorf("clock sentence is about %d tokens", n)
		}
	}
}
