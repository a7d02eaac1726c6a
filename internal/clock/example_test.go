package clock_test

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/agentfootprint/agentfootprint-go/clock"
	timelayer "github.com/agentfootprint/agentfootprint-go/internal/clock"
	"github.com/agentfootprint/agentfootprint-go/internal/tz"
)

func ExampleParseInstant() {
	in, _ := timelayer.ParseInstant("2026-10-09T08:40:59-07:00", timelayer.Strict)
	fmt.Println(timelayer.UTCString(in.Time), in.Precision, in.Precision.Step())

	// A tool's declared period may use a lower-case z and a leap second.
	leap, _ := timelayer.ParseInstant("2026-12-31T23:59:60z", timelayer.Lenient)
	fmt.Println(timelayer.UTCString(leap.Time))

	_, err := timelayer.ParseInstant("2026-12-31T23:59:60z", timelayer.Strict)
	fmt.Println(err != nil)
	// Output:
	// 2026-10-09T15:40:59Z second 1s
	// 2027-01-01T00:00:00Z
	// true
}

func ExampleBind() {
	z, _ := tz.Parse("America/Los_Angeles")
	p := timelayer.Bind(z)

	s, _ := p.Span("2026-10-09T15:00:00Z", "2026-10-09T15:40:00Z")
	fmt.Println(s)
	s, _ = p.Span("2026-11-01T08:00:00Z", "2026-11-01T09:30:00Z") // across the fall-back hour
	fmt.Println(s)
	s, _ = p.Instant("2026-10-09T15:40:03Z")
	fmt.Println(s)
	// Output:
	// 2026-10-09 08:00–08:40 America/Los_Angeles (UTC-07:00)
	// 2026-11-01 01:00 (UTC-07:00) – 2026-11-01 01:30 (UTC-08:00) America/Los_Angeles
	// 2026-10-09 08:40:03 America/Los_Angeles (UTC-07:00)
}

func ExamplePresentation_Range() {
	z, _ := tz.Parse("America/Los_Angeles")
	day := clock.Range{
		From: time.Date(2026, 10, 8, 7, 0, 0, 0, time.UTC),
		To:   time.Date(2026, 10, 9, 7, 0, 0, 0, time.UTC),
	}
	s, _ := timelayer.Bind(z).Range(day, timelayer.GrainSecond) // the last instant inside is shown
	fmt.Println(s)
	s, _ = timelayer.Bind(z).Range(day, timelayer.GrainDay)
	fmt.Println(s)
	// Output:
	// 2026-10-08 00:00:00–23:59:59 America/Los_Angeles (UTC-07:00)
	// 2026-10-08 America/Los_Angeles (UTC-07:00)
}

func ExampleStart() {
	builder, _ := tz.Parse("America/Los_Angeles")
	wall := func() time.Time { return time.Date(2026, 10, 9, 15, 40, 0, 250_999_999, time.UTC) }

	// No message time and no run zone: the turn's start and the builder's zone.
	c, _ := timelayer.Start(builder, clock.Given{}, wall)
	b, _ := json.Marshal(c)
	fmt.Println(string(b))

	// The stored clock resumes unchanged.
	var resumed timelayer.Clock
	_ = json.Unmarshal(b, &resumed)
	fmt.Println(resumed.Now().Equal(c.Now()), resumed.Zone().Name())

	// A resume passing another zone keeps the frozen clock and reports the difference.
	if d, ok := resumed.Resumed(clock.Given{Zone: "Europe/Berlin"}); ok {
		fmt.Println(d.Passed.Zone, "passed;", d.Kept.Zone, "kept")
	}
	// Output:
	// {"now":"2026-10-09T15:40:00.25Z","nowSource":"default","zone":"America/Los_Angeles","zoneSource":"builder"}
	// true America/Los_Angeles
	// Europe/Berlin passed; America/Los_Angeles kept
}

func ExampleClock_ForTool() {
	c, _ := timelayer.Start(tz.Zone{}, clock.Given{Now: time.Date(2026, 10, 9, 15, 40, 0, 0, time.UTC)}, nil)
	b, _ := json.Marshal(c.ForTool(time.Date(2026, 10, 9, 16, 10, 0, 0, time.UTC)))
	fmt.Println(string(b))
	// Output:
	// {"version":1,"zone":"UTC","zoneUnknown":true,"now":"2026-10-09T15:40:00Z","dispatchedAt":"2026-10-09T16:10:00Z"}
}

func ExampleDriftAtDispatch() {
	now := time.Date(2026, 10, 9, 15, 40, 0, 0, time.UTC)
	// The model sent "60m"; a pause held the call for 30 minutes.
	d, ok := timelayer.DriftAtDispatch(timelayer.Dispatch{Now: now, DispatchedAt: now.Add(30 * time.Minute)})
	b, _ := json.Marshal(d)
	fmt.Println(ok, string(b))

	// The library filled the look-back and the tool also reads iso-ranges: it is redrawn.
	d, _ = timelayer.DriftAtDispatch(timelayer.Dispatch{Now: now, DispatchedAt: now.Add(30 * time.Minute), LibraryFill: true, AcceptsISORange: true})
	r, _ := timelayer.ISORange(timelayer.Lookback(now, time.Hour))
	fmt.Println(d.Outcome, r)
	// Output:
	// true {"byMs":1800000,"outcome":"shifted"}
	// redrawn 2026-10-09T14:40:00Z..2026-10-09T15:39:59Z
}

func ExamplePeriodLine() {
	z, _ := tz.Parse("America/Los_Angeles")
	line, _ := timelayer.PeriodLine("backup_runs", timelayer.DeclaredPeriod{
		Queried: timelayer.SpanText{From: "2026-09-26T09:00:00Z", To: "2026-09-26T10:00:00Z"},
		Held:    &timelayer.SpanText{From: "2026-08-27T02:00:00Z", To: "2026-09-26T02:00:00Z"},
	}, timelayer.Bind(z))
	fmt.Println(line)
	// Output:
	// backup_runs queried 2026-09-26 02:00–03:00 America/Los_Angeles (UTC-07:00); the store holds 2026-08-26 19:00–2026-09-25 19:00 America/Los_Angeles (UTC-07:00)
}

func ExampleHeldLine() {
	z, _ := tz.Parse("UTC")
	line, _ := timelayer.HeldLine("metrics", timelayer.HeldSpan{
		Queried: timelayer.SpanText{From: "2026-09-30T06:00:00Z", To: "2026-09-30T12:00:00Z"},
		Held:    timelayer.SpanText{From: "2026-09-30T10:00:00Z", To: "2026-10-01T10:00:00Z"},
		Partly:  true,
	}, timelayer.Bind(z))
	fmt.Println(line)
	// Output:
	// metrics was asked about 2026-09-30 06:00–12:00 UTC; its source has data only for 2026-09-30 10:00–2026-10-01 10:00 UTC, only part of the asked time
}

func ExampleClockLines() {
	sources := []timelayer.SourceClock{
		{Tool: "billing", Zone: "America/New_York"},
		{Tool: "shipping", Zone: "Europe/Berlin"},
	}
	for _, l := range timelayer.ClockLines(sources, timelayer.ForModel) {
		fmt.Println(l)
	}
	// Output:
	// the sources use different clocks (America/New_York, Europe/Berlin); the library compares instants, not wall times
}

func ExampleClockSentence() {
	c, _ := timelayer.Start(tz.Zone{}, clock.Given{Now: time.Date(2026, 10, 9, 15, 40, 0, 0, time.UTC)}, nil)
	fmt.Println(timelayer.ClockSentence(c))
	fmt.Println(timelayer.UnknownZoneLine)
	// Output:
	// Time of this turn: Friday 2026-10-09 15:40 UTC (the person's time zone is unknown).
	// all times here are in UTC because the person's time zone is unknown
}

func ExampleMeaning() {
	now := time.Date(2026, 10, 9, 15, 40, 0, 0, time.UTC)
	asked, _ := timelayer.Meaning(timelayer.SpellingLookback, "60m", now)
	// The call ran 30 minutes late, so the tool read the hour before its own clock.
	read := asked.Shifted(30 * time.Minute)
	missing := timelayer.Difference([]clock.Range{asked}, []clock.Range{read})
	extra := timelayer.Difference([]clock.Range{read}, []clock.Range{asked})
	fmt.Println(timelayer.UTCString(missing[0].From), timelayer.UTCString(missing[0].To))
	fmt.Println(timelayer.UTCString(extra[0].From), timelayer.UTCString(extra[0].To))

	// An iso-range's end is inclusive to the unit of its last written digit.
	r, _ := timelayer.Meaning(timelayer.SpellingISORange, "2026-10-09T08:00:00-07:00..2026-10-09T08:40:59-07:00", now)
	fmt.Println(timelayer.UTCString(r.From), timelayer.UTCString(r.To))
	// Output:
	// 2026-10-09T14:40:00Z 2026-10-09T15:10:00Z
	// 2026-10-09T15:40:00Z 2026-10-09T16:10:00Z
	// 2026-10-09T15:00:00Z 2026-10-09T15:41:00Z
}

func ExampleCheckLine() {
	z, _ := tz.Parse("America/Los_Angeles")
	u := func(h, m int) time.Time { return time.Date(2026, 10, 9, h, m, 0, 0, time.UTC) }
	c := timelayer.CheckedPeriod{
		Tool: "search_logs", Against: timelayer.AgainstAsked, Shifted: true,
		Compared: clock.Range{From: u(14, 40), To: u(15, 40)},
		Reads:    []clock.Range{{From: u(15, 10), To: u(16, 10)}},
		Missing:  []clock.Range{{From: u(14, 40), To: u(15, 10)}},
		Extra:    []clock.Range{{From: u(15, 40), To: u(16, 10)}},
	}
	line, _, _ := timelayer.CheckLine(c, timelayer.Bind(z), timelayer.ForPerson)
	fmt.Println(line)
	// Output:
	// search_logs read a later window — asked: 2026-10-09 07:40:00–08:40:00 America/Los_Angeles (UTC-07:00); read: 2026-10-09 08:10:00–09:10:00 America/Los_Angeles (UTC-07:00)
}

func ExampleServedTimeLine() {
	z, _ := tz.Parse("America/Los_Angeles")
	c, _ := timelayer.Start(z, clock.Given{Now: time.Date(2026, 10, 9, 15, 40, 0, 0, time.UTC)}, nil)
	line, _ := timelayer.ServedTimeLine(timelayer.TimeLine{Clock: c})
	fmt.Println(line)
	// Output:
	// [Automated note from the tool runtime. The person did not write it and it corrects nothing; reply to the person based on the tool results.] Time of this turn: Friday 2026-10-09 08:40 America/Los_Angeles (UTC-07:00).
}
