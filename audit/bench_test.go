// This file measures export and verification throughput in records per second (target:
// ≥ 50 000 records/s per core each, bounded mode).

package audit

import (
	"testing"
	"time"
)

// BenchmarkExport measures AddRun + Drain + WriteTo of a 502-record run (bounded mode).
func BenchmarkExport(b *testing.B) {
	run, err := FromStore(scriptedRun("bench", 100))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	records := 0
	cpu0 := cpuTime()
	for b.Loop() {
		e, _ := NewExporter(Options{Now: fixedNow, LibraryVersion: "v1"})
		if err := e.AddRun(run); err != nil {
			b.Fatal(err)
		}
		seg, err := e.Drain()
		if err != nil {
			b.Fatal(err)
		}
		if _, err := seg.WriteTo(discard{}); err != nil {
			b.Fatal(err)
		}
		records += len(seg.Records)
	}
	reportThroughput(b, float64(records), cpu0)
}

// BenchmarkVerify measures ReadSegment + Verify of the same run's file.
func BenchmarkVerify(b *testing.B) {
	data := segmentBytes(b, exportScripted(b, 100, Options{}))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	records := int64(0)
	cpu0 := cpuTime()
	for b.Loop() {
		res := VerifyFiles(VerifyOptions{}, data)
		if !res.Valid {
			b.Fatal(res)
		}
		records += res.RecordsChecked
	}
	reportThroughput(b, float64(records), cpu0)
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// reportThroughput reports records per wall-clock second and per CPU second of this
// process (the per-core figure, which other load on the machine does not dilute).
func reportThroughput(b *testing.B, records float64, cpu0 time.Duration) {
	b.ReportMetric(records/b.Elapsed().Seconds(), "records/s")
	if cpu := cpuTime() - cpu0; cpu > 0 {
		b.ReportMetric(records/cpu.Seconds(), "records/cpu-s")
	}
}
