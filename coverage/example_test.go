package coverage_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"

	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/coverage/wire"
)

var (
	asked = coverage.Span{From: "2026-09-26T09:00:00Z", To: "2026-09-26T10:00:00Z"}
	kept  = coverage.HeldSpan("2026-08-27T02:00:00Z", "2026-09-26T02:00:00Z")
)

// A search that found nothing says where it looked.
func ExampleAbsent() {
	a, err := coverage.Absent(coverage.AbsenceDecl{
		What:       "failed backup runs for host-103",
		Checked:    []coverage.Item{{What: "every job in the 02:00 export"}},
		TryInstead: "ask backup_history for runs older than a day",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(a.Wire().Keys())
	// Output: [af_absent outcome looked_for checked retry_returns_the_same try_instead note]
}

// A malformed declaration is refused at the line that wrote it, naming the field.
func ExampleAbsent_refused() {
	_, err := coverage.Absent(coverage.AbsenceDecl{What: "failed backup runs"})
	var r *coverage.Refusal
	if errors.As(err, &r) {
		fmt.Println(r.Field)
	}
	// Output: checked
}

// The data door reads a declaration written as JSON, as a tool in another language would.
func ExampleAbsentData() {
	a, err := coverage.AbsentData([]byte(`{"what":"x","checked":["y"],"tryInstead":"z"}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	b, _ := coverage.Marshal(a.Wire()[:4])
	fmt.Println(string(b))
	// Output: {"af_absent":true,"outcome":"nothing_found","looked_for":"x","checked":[{"what":"y"}]}
}

// A ledger wraps a result with what it covers and what it does not.
func ExampleWrap() {
	c, err := coverage.Wrap([]string{"job-1 ok"}, coverage.LedgerDecl{
		Checked:     []coverage.Item{{What: "the 02:00 export"}},
		CannotCover: []coverage.Item{{What: "host paths", Why: "no collector"}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	inner, _ := c.Wire().Get(wire.CoverageMarker)
	fmt.Println(inner.(coverage.Object).Keys())
	// Output: [checked cannot_cover note]
}

// A described result carries typed rows with their provenance.
func ExampleDescribed() {
	s, err := coverage.Described(coverage.DescribedDecl{
		Facts:      []any{map[string]any{"entity": "host-103", "ok": false}},
		Provenance: &coverage.Provenance{MeasuredAt: "2026-09-26T02:00:00Z", Source: "nightly export"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Wire().Keys())
	// Output: [af_semantics facts provenance note]
}

// The verdict compares the instants the tool declared.
func ExampleVerdictOf() {
	v, err := coverage.VerdictOf(coverage.Period{Queried: asked, Held: kept})
	fmt.Println(v, err)
	// Output: not-held <nil>
}

// MintPeriod checks an author's period and returns its wire form.
func ExampleMintPeriod() {
	w, err := coverage.MintPeriod(coverage.Period{Queried: asked, Held: coverage.HeldUnknownSpan(), ReadAt: "2026-09-26T10:00:03Z"})
	if err != nil {
		fmt.Println(err)
		return
	}
	b, _ := coverage.Marshal(w)
	fmt.Println(string(b))
	// Output: {"queried":{"from":"2026-09-26T09:00:00Z","to":"2026-09-26T10:00:00Z"},"held":"unknown","read_at":"2026-09-26T10:00:03Z"}
}

// The Period: line gives the period as declared.
func ExamplePeriodLine() {
	fmt.Println(coverage.PeriodLine("backup_runs", coverage.Period{Queried: asked, Held: kept}))
	// Output: backup_runs queried 2026-09-26T09:00:00Z to 2026-09-26T10:00:00Z; the store holds 2026-08-27T02:00:00Z to 2026-09-26T02:00:00Z
}

// The serve door adds the verdict word last in the period, and the clause after the note.
func ExampleServed() {
	a, _ := coverage.Absent(coverage.AbsenceDecl{
		What:    "failed backup runs",
		Checked: []coverage.Item{{What: "every job in the 02:00 export", Short: "02:00 export"}},
		Period:  &coverage.Period{Queried: asked, Held: kept},
	})
	out, changed := coverage.Served(a)
	p, _ := out.(coverage.Object).Get("period")
	verdict, _ := p.(coverage.Object).Get("verdict")
	fmt.Println(changed, verdict)
	// Output: true not-held
}

// The dispatch boundary reads a result through one channel and records what it declared.
func ExampleReadCoverageResult() {
	a, _ := coverage.Absent(coverage.AbsenceDecl{
		What:    "failed backup runs",
		Checked: []coverage.Item{{What: "every job in the 02:00 export"}},
		Period:  &coverage.Period{Queried: asked, Held: kept},
	})
	r, ok := coverage.ReadCoverageResult(a, "backup_runs")
	v, _ := r.Verdict()
	row := r.Declared[0].Row("backup_runs", "call-1", 1)
	fmt.Println(ok, r.Status, v, row.Kind, row.LookedFor)
	// Output: true absent not-held absence failed backup runs
}

// A dispatcher reads, records and serves a result in one call.
func ExampleAtBoundary() {
	c, _ := coverage.Wrap([]string{"job-1 ok"}, coverage.LedgerDecl{
		Checked: []coverage.Item{{What: "the 02:00 export"}},
		Period:  &coverage.Period{Queried: asked, Held: coverage.HeldUnknownSpan()},
	})
	b := coverage.AtBoundary(c, "backup_runs")
	for _, f := range b.Result.Declared {
		row := f.Row("backup_runs", "call-1", 1)
		fmt.Println(row.Kind, len(row.Checked))
	}
	fmt.Println(b.Recognized, b.Record, b.Changed)
	// Output:
	// ledger 1
	// ledger true true
}

// canonical-notes.json publishes the wire vocabulary for minters in other languages.
func ExampleCanonicalNotes() {
	var doc struct {
		Markers map[string]string `json:"markers"`
	}
	_ = json.Unmarshal(coverage.CanonicalNotes(), &doc)
	fmt.Println(doc.Markers["ABSENCE_MARKER"], doc.Markers["COVERAGE_MARKER"], doc.Markers["SEMANTICS_MARKER"])
	// Output: af_absent af_coverage af_semantics
}

// Instants must carry a zone; the leap second reads as the next minute.
func ExampleParseInstant() {
	a, ok := coverage.ParseInstant("2016-12-31T23:59:60Z")
	_, noZone := coverage.ParseInstant("2026-09-26T08:00:00")
	fmt.Println(a.Format("2006-01-02T15:04:05Z07:00"), ok, noZone)
	// Output: 2017-01-01T00:00:00Z true false
}

// A call that declared several periods gets the weakest verdict among them.
func ExampleLeastHeld() {
	v, ok := coverage.LeastHeld([]coverage.Verdict{coverage.VerdictCovered, coverage.VerdictUnknown})
	fmt.Println(v, ok)
	// Output: unknown true
}

// A caller that wants developer warnings hands the reading channel its own logger. Each Warner
// warns once per tool and declaration; the result is still recognized and served as written.
func ExampleWithWarner() {
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey || a.Key == slog.MessageKey {
			return slog.Attr{}
		}
		return a
	}}))
	w := coverage.NewWarner(logger)
	env, _ := coverage.DecodeJSON([]byte(`{"af_absent":true,"looked_for":"x","checked":["y"],"period":{"queried":{"from":"yesterday","to":"2026-09-26T10:00:00Z"},"held":"unknown"}}`))
	for range 2 {
		r, _ := coverage.ReadCoverageResult(env, "backup_runs", coverage.WithWarner(w))
		fmt.Println(r.Status, r.Problems[0].Field)
	}
	// Output:
	// level=WARN tool=backup_runs declaration=period field=period.queried.from
	// absent period.queried.from
	// absent period.queried.from
}

// A series needs a grain and a provenance; a counter word in the aggregation needs IsCounter.
// The wire respells the author's keys: isCounter becomes is_counter, filterNote filter_note.
func ExampleDescribed_series() {
	counter := false
	s, err := coverage.Described(coverage.DescribedDecl{
		Series:     []any{map[string]any{"t": "2026-09-26T09:30:00Z", "entity": "fc1/3", "metric": "bytes", "value": 1200}},
		Grain:      &coverage.Grain{Interval: "30m", Aggregation: "sum", IsCounter: &counter},
		Provenance: &coverage.Provenance{MeasuredAt: "2026-09-26T09:30:00Z", Source: "InfluxDB SwitchPortStats"},
		Render:     &coverage.Render{Default: "table", FilterNote: "replicas excluded"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	grain, _ := s.Wire().Get("grain")
	render, _ := s.Wire().Get("render")
	g, _ := coverage.Marshal(grain)
	r, _ := coverage.Marshal(render)
	fmt.Println(string(g))
	fmt.Println(string(r))

	_, err = coverage.Described(coverage.DescribedDecl{
		Series:     []any{map[string]any{"t": 1, "entity": "fc1/3", "metric": "bytes", "value": 9}},
		Grain:      &coverage.Grain{Aggregation: "sum"},
		Provenance: &coverage.Provenance{MeasuredAt: "2026-09-26T09:30:00Z", Source: "InfluxDB"},
	})
	var refusal *coverage.Refusal
	if errors.As(err, &refusal) {
		fmt.Println(refusal.Field)
	}
	// Output:
	// {"interval":"30m","aggregation":"sum","is_counter":false}
	// {"default":"table","filter_note":"replicas excluded"}
	// grain.isCounter
}
