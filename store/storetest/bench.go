// This file holds the write-throughput benchmark shared by the backends.

package storetest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/store"
)

// BenchRun returns a run shaped like one agent turn of a few iterations: a ~24 KB record,
// ~8 KB of events and four blobs (two request bodies unique to the run, one response, one
// system prompt shared by every run so it is deduplicated).
func BenchRun(id string, i int) *store.Run {
	r := SampleRun(id, i)
	r.Record = json.RawMessage(fmt.Sprintf(`{"format":"agentfootprint-go.record/1","manifest":{"runId":%q},"commits":[%s]}`,
		id, strings.TrimSuffix(strings.Repeat(`{"idx":1,"runtimeStageId":"context#3","ops":[{"verb":"set","key":"contextUnits","value":"`+strings.Repeat("u", 180)+`"}]},`, 100), ",")))
	r.Events = json.RawMessage("[" + strings.TrimSuffix(strings.Repeat(fmt.Sprintf(`{"type":"agentfootprint.llm.request","payload":{"iteration":1},"meta":{"runId":%q,"wallClockMs":1764417600000}},`, id), 80), ",") + "]")
	r.Blobs = []store.Blob{
		{Data: []byte(fmt.Sprintf(`{"request":1,"run":%q,"body":%q}`, id, strings.Repeat("q", 4000)))},
		{Data: []byte(fmt.Sprintf(`{"request":2,"run":%q,"body":%q}`, id, strings.Repeat("r", 4000)))},
		{Data: []byte(fmt.Sprintf(`{"response":%q}`, id))},
		{Data: []byte(strings.Repeat("You are a careful refunds agent. ", 60))},
	}
	return r
}

// BenchmarkPutRun measures sequential PutRun of distinct BenchRun runs and reports runs/s.
func BenchmarkPutRun(b *testing.B, s store.Store) {
	ctx := context.Background()
	runs := make([]*store.Run, b.N)
	var bytes int
	for i := range runs {
		runs[i] = BenchRun(fmt.Sprintf("bench-%d", i), i)
		bytes += len(runs[i].Record) + len(runs[i].Events)
		for _, bl := range runs[i].Blobs {
			bytes += len(bl.Data)
		}
	}
	b.SetBytes(int64(bytes / max(b.N, 1)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if err := s.PutRun(ctx, runs[i]); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "runs/s")
}

// BenchmarkPutRunParallel measures PutRun from several goroutines at once (GOMAXPROCS × 2
// writers, as several agents sharing one store would) and reports runs/s.
func BenchmarkPutRunParallel(b *testing.B, s store.Store) {
	ctx := context.Background()
	var next atomic.Int64
	b.ReportAllocs()
	b.SetParallelism(2)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := int(next.Add(1))
			if err := s.PutRun(ctx, BenchRun(fmt.Sprintf("par-%d", i), i)); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "runs/s")
}
