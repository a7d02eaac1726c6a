package clock

import (
	"strings"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/clock"
	"github.com/agentfootprint/agentfootprint-go/internal/tz"
)

// TestRenderingRules covers each rendering rule beyond the goldens.
func TestRenderingRules(t *testing.T) {
	type tc struct {
		name     string
		zone     string // "" → the zero tz.Zone
		from, to string
		grain    Grain
		span     bool // Span(from, to) instead of clock.Range
		want     string
	}
	tests := []tc{
		// Rule 1: DST.
		{name: "DST forward, span", zone: la, from: "2026-03-08T09:30:00Z", to: "2026-03-08T10:30:00Z", span: true,
			want: "2026-03-08 01:30 (UTC-08:00) – 2026-03-08 03:30 (UTC-07:00) America/Los_Angeles"},
		{name: "DST back, same wall time on both ends", zone: la, from: "2026-11-01T08:30:00Z", to: "2026-11-01T09:30:00Z", span: true,
			want: "2026-11-01 01:30 (UTC-07:00) – 2026-11-01 01:30 (UTC-08:00) America/Los_Angeles"},
		{name: "DST back, range to the second", zone: la, from: "2026-11-01T07:00:00Z", to: "2026-11-01T10:00:00Z", grain: GrainSecond,
			want: "2026-11-01 00:00:00 (UTC-07:00) – 2026-11-01 01:59:59 (UTC-08:00) America/Los_Angeles"},
		{name: "DST across a month at day grain", zone: la, from: "2026-10-01T07:00:00Z", to: "2026-11-30T08:00:00Z", grain: GrainDay,
			want: "2026-10-01 (UTC-07:00) – 2026-11-29 (UTC-08:00) America/Los_Angeles"},
		{name: "DST forward in Europe", zone: "Europe/Berlin", from: "2026-03-29T00:30:00Z", to: "2026-03-29T01:30:00Z", span: true,
			want: "2026-03-29 01:30 (UTC+01:00) – 2026-03-29 03:30 (UTC+02:00) Europe/Berlin"},
		// Rule 2: both ends spell the same.
		{name: "point span", zone: la, from: "2026-10-09T15:40:00Z", to: "2026-10-09T15:40:00Z", span: true,
			want: "2026-10-09 08:40 America/Los_Angeles (UTC-07:00)"},
		{name: "one hour at hour grain", zone: la, from: "2026-10-09T15:00:00Z", to: "2026-10-09T16:00:00Z", grain: GrainHour,
			want: "2026-10-09 08:00 America/Los_Angeles (UTC-07:00)"},
		{name: "one month at month grain", zone: "UTC", from: "2026-10-01T00:00:00Z", to: "2026-11-01T00:00:00Z", grain: GrainMonth,
			want: "2026-10 UTC"},
		{name: "one year at year grain", zone: "UTC", from: "2026-01-01T00:00:00Z", to: "2027-01-01T00:00:00Z", grain: GrainYear,
			want: "2026 UTC"},
		{name: "sub-millisecond range collapses to one instant", zone: "UTC", from: "2026-10-09T15:40:00Z", to: "2026-10-09T15:40:00.0005Z", grain: GrainSecond,
			want: "2026-10-09 15:40:00 UTC"},
		// Rule 3: same date.
		{name: "hour grain same date", zone: la, from: "2026-10-09T15:00:00Z", to: "2026-10-09T18:00:00Z", grain: GrainHour,
			want: "2026-10-09 08:00–10:00 America/Los_Angeles (UTC-07:00)"},
		{name: "minute grain cuts seconds", zone: la, from: "2026-10-09T15:00:30Z", to: "2026-10-09T15:40:00Z", grain: GrainMinute,
			want: "2026-10-09 08:00–08:39 America/Los_Angeles (UTC-07:00)"},
		{name: "finer end sets a span's precision", zone: "UTC", from: "2026-10-09T15:00:00Z", to: "2026-10-09T15:40:07Z", span: true,
			want: "2026-10-09 15:00:00–15:40:07 UTC"},
		{name: "milliseconds truncated, never rounded", zone: "UTC", from: "2026-10-09T15:00:00.0009Z", to: "2026-10-09T15:40:00.9999Z", span: true,
			want: "2026-10-09 15:00:00.000–15:40:00.999 UTC"},
		{name: "sub-millisecond digits alone do not show", zone: "UTC", from: "2026-10-09T15:00:00.0009Z", to: "2026-10-09T15:40:00.000001Z", span: true,
			want: "2026-10-09 15:00–15:40 UTC"},
		{name: "exact range keeps its ends", zone: "UTC", from: "2026-10-09T15:00:00Z", to: "2026-10-09T16:00:00Z",
			want: "2026-10-09 15:00–16:00 UTC"},
		{name: "range to a sub-millisecond end", zone: "UTC", from: "2026-10-09T15:00:00Z", to: "2026-10-09T16:00:00.0004Z", grain: GrainSecond,
			want: "2026-10-09 15:00:00–16:00:00 UTC"},
		// Rule 4: different dates.
		{name: "cross date in UTC", zone: "UTC", from: "2026-10-09T22:00:00Z", to: "2026-10-10T02:00:00Z", span: true,
			want: "2026-10-09 22:00–2026-10-10 02:00 UTC"},
		{name: "cross date across a year", zone: "Asia/Tokyo", from: "2026-12-31T14:00:00Z", to: "2026-12-31T16:00:00Z", span: true,
			want: "2026-12-31 23:00–2027-01-01 01:00 Asia/Tokyo (UTC+09:00)"},
		// Rule 5: date-only ends.
		{name: "week grain shows dates", zone: "UTC", from: "2026-10-05T00:00:00Z", to: "2026-10-19T00:00:00Z", grain: GrainWeek,
			want: "2026-10-05 – 2026-10-18 UTC"},
		{name: "months", zone: "UTC", from: "2026-09-01T00:00:00Z", to: "2026-11-01T00:00:00Z", grain: GrainMonth,
			want: "2026-09 – 2026-10 UTC"},
		{name: "years", zone: "UTC", from: "2025-01-01T00:00:00Z", to: "2027-01-01T00:00:00Z", grain: GrainYear,
			want: "2025 – 2026 UTC"},
		// Tags.
		{name: "Etc/UTC stands alone", zone: "Etc/UTC", from: "2026-10-09T15:00:00Z", to: "2026-10-09T15:40:00Z", span: true,
			want: "2026-10-09 15:00–15:40 Etc/UTC"},
		{name: "no zone renders as UTC", zone: "", from: "2026-10-09T15:00:00Z", to: "2026-10-09T15:40:00Z", span: true,
			want: "2026-10-09 15:00–15:40 UTC"},
		{name: "Etc/GMT+5 by its real offset", zone: "Etc/GMT+5", from: "2026-10-09T15:00:00Z", to: "2026-10-09T15:40:00Z", span: true,
			want: "2026-10-09 10:00–10:40 Etc/GMT+5 (UTC-05:00)"},
		{name: "declared offsets do not change the zone", zone: la, from: "2026-10-09T17:00:00+02:00", to: "2026-10-09T08:40:00-07:00", span: true,
			want: "2026-10-09 08:00–08:40 America/Los_Angeles (UTC-07:00)"},
		{name: "lenient leap second", zone: "UTC", from: "2026-12-31T23:59:60z", to: "2027-01-01T00:10:00Z", span: true,
			want: "2027-01-01 00:00–00:10 UTC"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var z tz.Zone
			if tt.zone != "" {
				z = mustZone(t, tt.zone)
			}
			p := Bind(z)
			var got string
			var err error
			if tt.span {
				got, err = p.Span(tt.from, tt.to)
			} else {
				a, _ := ParseInstant(tt.from, Lenient)
				b, _ := ParseInstant(tt.to, Lenient)
				got, err = p.Range(clock.Range{From: a.Time, To: b.Time}, tt.grain)
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

func TestEnDashes(t *testing.T) {
	p := Bind(mustZone(t, la))
	got, _ := p.Span("2026-10-09T15:00:00Z", "2026-10-09T15:40:00Z")
	if !strings.ContainsRune(got, '\u2013') || strings.Contains(got, "08:00-08:40") {
		t.Errorf("%q: the span must use U+2013", got)
	}
}

func TestPresentationRefuses(t *testing.T) {
	p := Bind(mustZone(t, la))
	from := time.Date(2026, 10, 9, 15, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		call func() (string, error)
		want string
	}{
		{"malformed instant", func() (string, error) { return p.Instant("2026-10-09T15:00") }, "zone is missing"},
		{"malformed span start", func() (string, error) { return p.Span("yesterday", "2026-10-09T15:00Z") }, "span.from"},
		{"malformed span end", func() (string, error) { return p.Span("2026-10-09T15:00Z", "2026-10-09") }, "span.to"},
		{"reversed span", func() (string, error) { return p.Span("2026-10-09T16:00Z", "2026-10-09T15:00Z") }, "after its end"},
		{"reversed range", func() (string, error) { return p.Range(clock.Range{From: from, To: from.Add(-time.Hour)}, GrainSecond) }, "after range.to"},
		{"zero range", func() (string, error) { return p.Range(clock.Range{}, GrainSecond) }, "range.from is missing"},
		{"empty range at a grain", func() (string, error) { return p.Range(clock.Range{From: from, To: from}, GrainSecond) }, "empty"},
		{"unknown grain", func() (string, error) { return p.Range(clock.Range{From: from, To: from.Add(time.Hour)}, "fortnight") }, `"fortnight"`},
		{"unknown grain via Between", func() (string, error) { return p.Between(from, from.Add(time.Hour), "Day") }, `"Day"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.call()
			if err == nil {
				t.Fatalf("rendered %q, want a refusal", got)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not mention %q", err, tt.want)
			}
		})
	}
}

func TestBetweenMatchesRange(t *testing.T) {
	p := Bind(mustZone(t, la))
	from, to := at(t, "2026-10-08T07:00:00Z"), at(t, "2026-10-09T07:00:00Z")
	a, err1 := p.Range(clock.Range{From: from, To: to}, GrainSecond)
	b, err2 := p.Between(from, to, "second")
	if err1 != nil || err2 != nil || a != b {
		t.Errorf("Range %q (%v) vs Between %q (%v)", a, err1, b, err2)
	}
}

func TestISORange(t *testing.T) {
	tests := []struct {
		from, to string
		want     string
	}{
		{"2026-10-09T07:40:00Z", "2026-10-09T08:40:00Z", "2026-10-09T07:40:00Z..2026-10-09T08:39:59Z"},
		{"2026-10-09T15:00:00+02:00", "2026-10-09T15:41:00Z", "2026-10-09T13:00:00Z..2026-10-09T15:40:59Z"},
		{"2026-10-09T07:40:00Z", "2026-10-09T08:40:00.991Z", "2026-10-09T07:40:00.000Z..2026-10-09T08:40:00.990Z"},
		{"2026-10-09T07:40:00.000000001Z", "2026-10-09T08:40:00Z", "2026-10-09T07:40:00.000000001Z..2026-10-09T08:39:59.999999999Z"},
	}
	for _, tt := range tests {
		r := clock.Range{From: at(t, tt.from), To: at(t, tt.to)}
		got, err := ISORange(r)
		if err != nil {
			t.Fatalf("ISORange(%v): %v", r, err)
		}
		if got != tt.want {
			t.Errorf("ISORange = %q, want %q", got, tt.want)
		}
		// The spelling means the range again: [from, to + step of to's written precision).
		ends := strings.Split(got, "..")
		a, _ := ParseInstant(ends[0], Strict)
		b, err := ParseInstant(ends[1], Strict)
		if err != nil {
			t.Fatalf("end %q is not strict: %v", ends[1], err)
		}
		back := clock.Range{From: a.Time, To: b.Time.Add(b.Precision.Step())}
		if !back.From.Equal(r.From) || !back.To.Equal(r.To) {
			t.Errorf("%q reads back as [%s, %s)", got, UTCString(back.From), UTCString(back.To))
		}
	}
	if _, err := ISORange(clock.Range{From: at(t, "2026-10-09T07:40:00Z"), To: at(t, "2026-10-09T07:40:00Z")}); err == nil {
		t.Errorf("an empty range was spelled")
	}
}
