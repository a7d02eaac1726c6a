package engine

import (
	"testing"
)

func benchBoundary(b *testing.B, v any) {
	b.ReportAllocs()
	for b.Loop() {
		_, _ = ReadCoverageResult(v, "backup_runs")
		_, _ = Served(v)
	}
}

// BenchmarkBoundaryPlainData is the dispatch boundary on a result that declares nothing: the cost
// every plain tool call pays.
func BenchmarkBoundaryPlainData(b *testing.B) {
	v := map[string]any{"rows": []any{1, 2, 3}, "host": "host-103", "status": "ok", "count": 3}
	benchBoundary(b, v)
}

// BenchmarkBoundaryAbsence is the boundary on a minted absence with a not-held period.
func BenchmarkBoundaryAbsence(b *testing.B) {
	a := must(AbsentData(j(b, `{"what":"failed backup runs","checked":["every job in the 02:00 export",{"what":"the last 24h","short":"24h"}],"period":`+seedP+`}`)))
	benchBoundary(b, a)
}

// BenchmarkBoundaryForeignLedger is the boundary on a decoded foreign ledger around an absence.
func BenchmarkBoundaryForeignLedger(b *testing.B) {
	v := j(b, `{"af_coverage":{"checked":[{"what":"z"}],"in_progress":[{"what":"b","count":2}],"period":{"queried":`+qJSON+`,"held":"unknown"},"note":"C"},"result":{"af_absent":true,"looked_for":"x","checked":[{"what":"y"}],"period":`+seedP+`,"note":"N"}}`)
	benchBoundary(b, v)
}

// BenchmarkMintAbsent is the typed Absent door with items and a period.
func BenchmarkMintAbsent(b *testing.B) {
	d := AbsenceDecl{
		What:        "failed backup runs",
		Checked:     []Item{{What: "every job in the 02:00 export"}, {What: "the last 24h", Short: "24h"}},
		CannotCover: []Item{{What: "host paths", Why: "no collector"}},
		Period:      &Period{Queried: pQ, Held: Held{Span: pH}},
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Absent(d); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseInstant is the instant grammar on a zoned instant with a fraction.
func BenchmarkParseInstant(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := ParseInstant("2026-09-26T09:00:00.123456789+02:00"); !ok {
			b.Fatal("refused")
		}
	}
}
