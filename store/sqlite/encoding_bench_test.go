// This file measures PutRun and GetRun of the run of a 200-call agent turn and of the turns
// of a conversation, written in the layout of schema 1 (every value whole) and in the current
// one (deltas on the turn before, shared chunks, compressed), side by side in one benchmark
// run, with the bytes each leaves in the store.

package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/internal/backend/stored"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/store"
	"github.com/agentfootprint/agentfootprint-go/store/storetest"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// agentRun returns the run of one scripted agent turn of calls model calls, each tool call
// returning about 2 KB of log lines.
func agentRun(tb testing.TB, calls int) *store.Run {
	var rs []scripted.Reply
	for i := 1; i < calls; i++ {
		rs = append(rs, scripted.Reply{ToolCalls: []llm.ToolCall{{ID: fmt.Sprintf("c%d", i), Name: "fetch_logs", Args: []byte(fmt.Sprintf(`{"page":%d}`, i))}}})
	}
	rs = append(rs, scripted.Reply{Content: "Done."})
	logs := tool.Must(tool.New("fetch_logs", "Fetch one page of logs.",
		func(_ context.Context, in struct {
			Page int `json:"page"`
		}) (string, error) {
			return strings.Repeat(fmt.Sprintf("page %d: checkout error rate 12%%, upstream reset\n", in.Page), 40), nil
		}))
	a, err := agent.New(scripted.New(rs...), agent.WithTools(logs), agent.WithMaxIterations(calls+1))
	if err != nil {
		tb.Fatal(err)
	}
	res, err := a.Run(context.Background(), agent.Input{Message: "Read every page."})
	if err != nil {
		tb.Fatal(err)
	}
	run, err := store.RunFromResult(res, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return run
}

// heldBytes returns the bytes of the record, events and data columns of the runs, blobs and
// chunks tables.
func heldBytes(tb testing.TB, s *runStore) int {
	var n int
	err := s.db.QueryRow(`SELECT (SELECT coalesce(sum(length(record) + coalesce(length(events), 0)), 0) FROM runs)
		+ (SELECT coalesce(sum(length(data)), 0) FROM blobs) + (SELECT coalesce(sum(length(data)), 0) FROM blob_data)
		+ (SELECT coalesce(sum(length(sha256) + length(data)), 0) FROM chunks)`).Scan(&n)
	if err != nil {
		tb.Fatal(err)
	}
	return n
}

// BenchmarkPutGetRun200 stores and reads back the run of a 200-call turn in both layouts,
// each time into a new store (opening it is left out of the time), so that the current
// layout finds nothing to share and is timed on a first write. It reports the bytes the
// store holds for the run.
func BenchmarkPutGetRun200(b *testing.B) {
	run := agentRun(b, 200)
	ctx := context.Background()
	for _, mode := range []struct {
		name string
		m    stored.Mode
	}{{"layout=schema1", stored.Whole}, {"layout=compact", stored.Compact}} {
		b.Run(mode.name, func(b *testing.B) {
			held := 0
			for range b.N {
				b.StopTimer()
				s := openTemp(b).(*runStore)
				s.mode = mode.m
				b.StartTimer()
				if err := s.PutRun(ctx, run); err != nil {
					b.Fatal(err)
				}
				got, err := s.GetRun(ctx, run.ID)
				if err != nil || len(got.Record) != len(run.Record) {
					b.Fatalf("GetRun: %v", err)
				}
				b.StopTimer()
				held = heldBytes(b, s)
				s.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(held), "stored-bytes")
		})
	}
}

// BenchmarkConversation20 writes the 20 turns of a conversation into a new store, reads each
// back, and then reads the last turn once more from the file reopened (so nothing is cached:
// the read rebuilds the 19 turns it is a delta on), in the layout of schema 1 and the
// current one. It reports the time per turn written and read, the cold read, and the bytes
// the store holds.
func BenchmarkConversation20(b *testing.B) {
	runs := storetest.ConversationRuns(20)
	ctx := context.Background()
	for _, mode := range []struct {
		name string
		m    stored.Mode
	}{{"layout=schema1", stored.Whole}, {"layout=compact", stored.Compact}} {
		b.Run(mode.name, func(b *testing.B) {
			var put, get, cold time.Duration
			held := 0
			for range b.N {
				b.StopTimer()
				path := filepath.Join(b.TempDir(), "runs.db")
				s, err := open(ctx, path)
				if err != nil {
					b.Fatal(err)
				}
				s.mode = mode.m
				b.StartTimer()
				t0 := time.Now()
				for _, r := range runs {
					if err := s.PutRun(ctx, r); err != nil {
						b.Fatal(err)
					}
				}
				t1 := time.Now()
				for _, r := range runs {
					if _, err := s.GetRun(ctx, r.ID); err != nil {
						b.Fatal(err)
					}
				}
				t2 := time.Now()
				b.StopTimer()
				held = heldBytes(b, s)
				s.Close()
				again, err := open(ctx, path)
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				t3 := time.Now()
				if _, err := again.GetRun(ctx, runs[len(runs)-1].ID); err != nil {
					b.Fatal(err)
				}
				cold += time.Since(t3)
				b.StopTimer()
				again.Close()
				b.StartTimer()
				put += t1.Sub(t0)
				get += t2.Sub(t1)
			}
			n := float64(b.N * len(runs))
			b.ReportMetric(float64(put.Microseconds())/n, "put-µs/turn")
			b.ReportMetric(float64(get.Microseconds())/n, "get-µs/turn")
			b.ReportMetric(float64(cold.Microseconds())/float64(b.N), "cold-get-last-µs")
			b.ReportMetric(float64(held), "stored-bytes")
		})
	}
}
