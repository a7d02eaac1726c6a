package coverage_test

import (
	"errors"
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/coverage/wire"
)

var (
	asked = coverage.Span{From: "2026-09-26T09:00:00Z", To: "2026-09-26T10:00:00Z"}
	kept  = coverage.Held{Span: coverage.Span{From: "2026-08-27T02:00:00Z", To: "2026-09-26T02:00:00Z"}}
)

// The verdict of a malformed period is a refusal naming the field.
func ExampleVerdictOf_refused() {
	_, err := coverage.VerdictOf(coverage.Period{Queried: coverage.Span{From: "yesterday", To: "2026-09-26T10:00:00Z"}, Held: coverage.Held{Unknown: true}})
	var r *coverage.Refusal
	if errors.As(err, &r) {
		fmt.Println(r.Field)
	}
	// Output: period.queried.from
}

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
	fmt.Println(wire.Object(a).Keys())
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
	b, _ := wire.Marshal(a[:4])
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
	inner, _ := wire.Object(c).Get(wire.CoverageMarker)
	fmt.Println(inner.(wire.Object).Keys())
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
	fmt.Println(wire.Object(s).Keys())
	// Output: [af_semantics facts provenance note]
}

// The verdict compares the instants the tool declared.
func ExampleVerdictOf() {
	v, err := coverage.VerdictOf(coverage.Period{Queried: asked, Held: kept})
	fmt.Println(v, err)
	// Output: not-held <nil>
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
	grain, _ := wire.Object(s).Get("grain")
	render, _ := wire.Object(s).Get("render")
	g, _ := wire.Marshal(grain)
	r, _ := wire.Marshal(render)
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
