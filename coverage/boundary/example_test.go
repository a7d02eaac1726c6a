package boundary_test

import (
	"fmt"
	"log/slog"
	"os"

	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	"github.com/agentfootprint/agentfootprint-go/coverage/wire"
)

var (
	asked = coverage.Span{From: "2026-09-26T09:00:00Z", To: "2026-09-26T10:00:00Z"}
	kept  = coverage.Held{Span: coverage.Span{From: "2026-08-27T02:00:00Z", To: "2026-09-26T02:00:00Z"}}
)

// What the model is served: the verdict word last in the period, and the clause after the note.
func ExampleReading_served() {
	a, _ := coverage.Absent(coverage.AbsenceDecl{
		What:    "failed backup runs",
		Checked: []coverage.Item{{What: "every job in the 02:00 export", Short: "02:00 export"}},
		Period:  &coverage.Period{Queried: asked, Held: kept},
	})
	r := boundary.Read(a, "backup_runs", nil)
	p, _ := r.Served.(wire.Object).Get("period")
	verdict, _ := p.(wire.Object).Get("verdict")
	fmt.Println(r.Changed, verdict)
	// Output: true not-held
}

// The dispatch boundary reads a result through one channel and records what it declared.
func ExampleReading_record() {
	a, _ := coverage.Absent(coverage.AbsenceDecl{
		What:    "failed backup runs",
		Checked: []coverage.Item{{What: "every job in the 02:00 export"}},
		Period:  &coverage.Period{Queried: asked, Held: kept},
	})
	b := boundary.Read(a, "backup_runs", nil)
	r, ok := b, b.Record
	v, _ := r.Verdict()
	row := r.Declared[0].Row("backup_runs", "call-1", 1)
	fmt.Println(ok, r.Absent, v, row.Kind, row.LookedFor)
	// Output: true true not-held absence failed backup runs
}

// A dispatcher reads, records and serves a result in one call.
func ExampleRead() {
	c, _ := coverage.Wrap([]string{"job-1 ok"}, coverage.LedgerDecl{
		Checked: []coverage.Item{{What: "the 02:00 export"}},
		Period:  &coverage.Period{Queried: asked, Held: coverage.Held{Unknown: true}},
	})
	b := boundary.Read(c, "backup_runs", nil)
	for _, f := range b.Declared {
		row := f.Row("backup_runs", "call-1", 1)
		fmt.Println(row.Kind, len(row.Checked))
	}
	fmt.Println(b.Recognized, b.Record, b.Changed)
	// Output:
	// ledger 1
	// ledger true true
}

// A caller that wants developer warnings hands the reading channel its own logger. Each Warner
// warns once per tool and declaration; the result is still recognized and served as written.
func ExampleNewWarner() {
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey || a.Key == slog.MessageKey {
			return slog.Attr{}
		}
		return a
	}}))
	w := boundary.NewWarner(logger)
	env, _ := wire.DecodeJSON([]byte(`{"af_absent":true,"looked_for":"x","checked":["y"],"period":{"queried":{"from":"yesterday","to":"2026-09-26T10:00:00Z"},"held":"unknown"}}`))
	for range 2 {
		r := boundary.Read(env, "backup_runs", w)
		fmt.Println(r.Absent, r.Problems[0].Field)
	}
	// Output:
	// level=WARN tool=backup_runs declaration=period field=period.queried.from
	// true period.queried.from
	// true period.queried.from
}
