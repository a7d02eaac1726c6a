package clock

import (
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/clock"
	"github.com/agentfootprint/agentfootprint-go/internal/tz"
)

// The targets: a render ≤ 2 µs and ≤ 4 allocs; ParseZone, once cached,
// ≤ 200 ns.

func BenchmarkSpan(b *testing.B) {
	p := Bind(mustZone(b, la))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Span("2026-10-01T16:22:44.300Z", "2026-10-01T17:02:44.300Z"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSpanOffsets(b *testing.B) {
	p := Bind(mustZone(b, la))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Span("2026-10-09T08:00:00-07:00", "2026-10-09T17:40:00+02:00"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkInstant(b *testing.B) {
	p := Bind(mustZone(b, la))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Instant("2026-10-09T15:40:03Z"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRange(b *testing.B) {
	p := Bind(mustZone(b, la))
	r := clock.Range{From: time.Date(2026, 10, 8, 7, 0, 0, 0, time.UTC), To: time.Date(2026, 10, 9, 15, 40, 0, 1e6, time.UTC)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Range(r, GrainSecond); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRangeDST(b *testing.B) {
	p := Bind(mustZone(b, la))
	r := clock.Range{From: time.Date(2026, 11, 1, 7, 0, 0, 0, time.UTC), To: time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Range(r, GrainSecond); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseZoneCached(b *testing.B) {
	mustZone(b, la)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tz.Parse(la); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseInstant(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseInstant("2026-10-09T15:40:03.300Z", Lenient); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCheckLineShiftedModel(b *testing.B) {
	p := Bind(mustZone(b, la))
	u := func(h, m int) time.Time { return time.Date(2026, 10, 9, h, m, 0, 0, time.UTC) }
	c := CheckedPeriod{
		Tool: "search_logs", Against: AgainstAsked, Shifted: true,
		Compared: clock.Range{From: u(14, 40), To: u(15, 40)},
		Reads:    []clock.Range{{From: u(15, 10), To: u(16, 10)}},
		Missing:  []clock.Range{{From: u(14, 40), To: u(15, 10)}},
		Extra:    []clock.Range{{From: u(15, 40), To: u(16, 10)}},
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := CheckLine(c, p, ForModel); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkServedTimeLineClockOnly(b *testing.B) {
	c, err := Start(mustZone(b, la), clock.Given{Now: time.Date(2026, 10, 9, 15, 40, 0, 0, time.UTC)}, nil)
	if err != nil {
		b.Fatal(err)
	}
	var s string
	b.ReportAllocs()
	for b.Loop() {
		if s, err = ServedTimeLine(TimeLine{Clock: c}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((len(s)+3)/4), "tokens(chars/4)")
}
