package results_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/clock"
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	timelayer "github.com/agentfootprint/agentfootprint-go/internal/clock"
	"github.com/agentfootprint/agentfootprint-go/internal/honesty/results"
	"github.com/google/go-cmp/cmp"
)

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func rng(t *testing.T, from, to string) *clock.Range {
	return &clock.Range{From: mustTime(t, from), To: mustTime(t, to)}
}

func declared(from, to string) coverage.Period {
	return coverage.Period{Queried: coverage.Span{From: from, To: to}, Held: coverage.Held{Span: coverage.Span{From: "2026-01-01T00:00:00Z", To: "2026-12-31T00:00:00Z"}}}
}

func TestTimeChecks(t *testing.T) {
	now := mustTime(t, "2026-10-09T15:40:00Z")
	cases := []struct {
		name string
		in   results.TimeInput
		want string // the row's time fields as JSON
	}{
		{"30d asked, 7d declared: less than asked", results.TimeInput{Now: now, Verdict: "covered", Sent: true,
			Asked:    rng(t, "2026-09-09T15:40:00Z", "2026-10-09T15:40:00Z"),
			Declared: []coverage.Period{declared("2026-10-02T15:40:00Z", "2026-10-09T15:40:00Z")}},
			`{"differs":{"against":"asked","asked":{"from":"2026-09-09T15:40:00Z","to":"2026-10-09T15:40:00Z"},"read":[{"from":"2026-10-02T15:40:00Z","to":"2026-10-09T15:40:00.001Z"}],"source":"declared","stepMs":1,"missing":[{"from":"2026-09-09T15:40:00Z","to":"2026-10-02T15:40:00Z"}],"extra":[]}}`},
		{"wider read: more than asked", results.TimeInput{Now: now, Verdict: "covered",
			Asked:    rng(t, "2026-10-08T07:00:00Z", "2026-10-09T07:00:00Z"),
			Declared: []coverage.Period{declared("2026-10-08T07:00:00Z", "2026-10-09T15:40:00Z")}},
			`{"differs":{"against":"asked","asked":{"from":"2026-10-08T07:00:00Z","to":"2026-10-09T07:00:00Z"},"read":[{"from":"2026-10-08T07:00:00Z","to":"2026-10-09T15:40:00.001Z"}],"source":"declared","stepMs":1,"missing":[],"extra":[{"from":"2026-10-09T07:00:00Z","to":"2026-10-09T15:40:00.001Z"}]}}`},
		{"exact read at 1s granularity", results.TimeInput{Now: now, Verdict: "covered", Granularity: time.Second,
			Asked:    rng(t, "2026-10-09T14:40:00Z", "2026-10-09T15:40:00Z"),
			Declared: []coverage.Period{declared("2026-10-09T14:40:00Z", "2026-10-09T15:39:59Z")}},
			`{}`},
		{"tool read its clock a moment later", results.TimeInput{Now: now, Verdict: "covered", Sent: true,
			Asked:    rng(t, "2026-10-09T14:40:00Z", "2026-10-09T15:40:00Z"),
			Declared: []coverage.Period{declared("2026-10-09T14:40:20Z", "2026-10-09T15:40:20Z")}},
			`{}`},
		{"shifted after a 30-minute pause", results.TimeInput{Now: now, Verdict: "undeclared", Sent: true,
			Asked: rng(t, "2026-10-09T14:40:00Z", "2026-10-09T15:40:00Z"),
			Drift: &timelayer.Drift{ByMs: 1800000, Outcome: timelayer.Shifted}},
			`{"differs":{"against":"asked","asked":{"from":"2026-10-09T14:40:00Z","to":"2026-10-09T15:40:00Z"},"read":[{"from":"2026-10-09T15:10:00Z","to":"2026-10-09T16:10:00Z"}],"source":"shifted","missing":[{"from":"2026-10-09T14:40:00Z","to":"2026-10-09T15:10:00Z"}],"extra":[{"from":"2026-10-09T15:40:00Z","to":"2026-10-09T16:10:00Z"}]},"shifted":{"byMs":1800000}}`},
		{"20s drift is nothing", results.TimeInput{Now: now, Verdict: "undeclared", Sent: true,
			Asked: rng(t, "2026-10-09T14:40:00Z", "2026-10-09T15:40:00Z")},
			`{}`},
		{"refused beyond retention", results.TimeInput{Now: now, Verdict: "undeclared", RefusedBeyondRetention: true, Retention: 30 * 24 * time.Hour,
			Asked: rng(t, "2026-08-01T00:00:00Z", "2026-08-02T00:00:00Z")},
			`{"beyondRetention":true}`},
		{"partly beyond retention", results.TimeInput{Now: now, Verdict: "undeclared", PartlyBeyondRetention: true, Retention: 30 * 24 * time.Hour,
			Asked: rng(t, "2026-09-01T00:00:00Z", "2026-09-20T00:00:00Z")},
			`{"partlyBeyondRetention":true}`},
		{"model chose another window than the person's", results.TimeInput{Now: now, Verdict: "undeclared", Sent: true,
			Asked:  rng(t, "2026-10-09T14:40:00Z", "2026-10-09T15:40:00Z"),
			Person: rng(t, "2026-10-09T13:40:00Z", "2026-10-09T15:40:00Z")},
			`{"differs":{"against":"person","asked":{"from":"2026-10-09T13:40:00Z","to":"2026-10-09T15:40:00Z"},"read":[{"from":"2026-10-09T14:40:00Z","to":"2026-10-09T15:40:00Z"}],"source":"asked","missing":[{"from":"2026-10-09T13:40:00Z","to":"2026-10-09T14:40:00Z"}],"extra":[]}}`},
		{"nothing asked, nothing compared", results.TimeInput{Now: now, Verdict: "covered",
			Declared: []coverage.Period{declared("2026-10-02T15:40:00Z", "2026-10-09T15:40:00Z")}},
			`{}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var row boundary.PeriodRow
			results.TimeChecks(c.in).Apply(&row)
			b, err := json.Marshal(struct {
				Differs               *boundary.PeriodDiffers `json:"differs,omitempty"`
				Shifted               *boundary.PeriodShift   `json:"shifted,omitempty"`
				BeyondRetention       bool                    `json:"beyondRetention,omitempty"`
				PartlyBeyondRetention bool                    `json:"partlyBeyondRetention,omitempty"`
				Held                  *boundary.PeriodHeld    `json:"held,omitempty"`
			}{row.Differs, row.Shifted, row.BeyondRetention, row.PartlyBeyondRetention, row.Held})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.want, string(b)); diff != "" {
				t.Errorf("fields (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTimeChecksHeldAndNames(t *testing.T) {
	p := coverage.Period{Queried: coverage.Span{From: "2026-09-30T13:00:00Z", To: "2026-09-30T18:59:50Z"},
		Held: coverage.Held{Span: coverage.Span{From: "2026-10-01T16:22:44.300Z", To: "2026-10-01T17:02:44.300Z"}}}
	f := results.TimeChecks(results.TimeInput{Verdict: "not-held", Declared: []coverage.Period{p}})
	if f.Held == nil || f.Held.Queried != p.Queried || f.Held.Held != p.Held.Span {
		t.Errorf("held %+v", f.Held)
	}
	f = results.TimeChecks(results.TimeInput{Verdict: "undeclared", Sent: true, Asked: rng(t, "2026-10-09T14:40:00Z", "2026-10-09T15:40:00Z"),
		Drift: &timelayer.Drift{ByMs: 1800000, Outcome: timelayer.Shifted}})
	if diff := cmp.Diff([]string{"period-differs-from-asked", "period-shifted"}, f.Names()); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
}

// BenchmarkTimeChecks measures the period checks of one call with four
// declared periods.
func BenchmarkTimeChecks(b *testing.B) {
	now := time.Date(2026, 10, 9, 15, 40, 0, 0, time.UTC)
	asked := clock.Range{From: now.Add(-30 * 24 * time.Hour), To: now}
	var ds []coverage.Period
	for i := range 4 {
		from := now.Add(-time.Duration(7*(i+1)) * 24 * time.Hour)
		ds = append(ds, declared(timelayer.UTCString(from), timelayer.UTCString(from.Add(72*time.Hour))))
	}
	in := results.TimeInput{Now: now, Verdict: "covered", Sent: true, Asked: &asked, Declared: ds, Retention: 90 * 24 * time.Hour}
	b.ReportAllocs()
	for b.Loop() {
		if results.TimeChecks(in).Differs == nil {
			b.Fatal("no differs")
		}
	}
}
