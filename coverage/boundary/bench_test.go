package boundary

import (
	"testing"

	"github.com/agentfootprint/agentfootprint-go/coverage"
)

// BenchmarkReadMintedAbsence is what the dispatcher pays for a minted absence through the public
// path: one Read (recognize, record, serve) and the row of each declaration. Compare it with the
// engine's BenchmarkBoundaryAbsence, the same work without the conversions to coverage's types.
func BenchmarkReadMintedAbsence(b *testing.B) {
	a, err := coverage.Absent(coverage.AbsenceDecl{
		What:    "failed backup runs",
		Checked: []coverage.Item{{What: "every job in the 02:00 export", Short: "02:00 export"}},
		Period: &coverage.Period{
			Queried: coverage.Span{From: "2026-09-26T09:00:00Z", To: "2026-09-26T10:00:00Z"},
			Held:    coverage.Held{Span: coverage.Span{From: "2026-08-27T02:00:00Z", To: "2026-09-26T02:00:00Z"}},
		},
	})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		r := Read(a, "backup_runs", nil)
		for _, f := range r.Declared {
			_ = f.Row("backup_runs", "call-1", 1)
		}
	}
}

// BenchmarkReadPlainData is the cost every plain tool call pays: a result that declares nothing.
func BenchmarkReadPlainData(b *testing.B) {
	v := map[string]any{"rows": []any{1, 2, 3}, "next": nil}
	b.ReportAllocs()
	for b.Loop() {
		_ = Read(v, "backup_runs", nil)
	}
}
