// A record of format agentfootprint-go.record/1 (written by the code before
// requests were kept as deltas) still loads, rebuilds its requests, explains
// and exports.

package explain_test

import (
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/audit"
	"github.com/agentfootprint/agentfootprint-go/explain"
	"github.com/agentfootprint/agentfootprint-go/store"
	"os"
	"strings"
	"testing"
)

func TestRecordFormat1StillExplainsAndExports(t *testing.T) {
	data, err := os.ReadFile("testdata/record-v1.json")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data[:64]), `"agentfootprint-go.record/1"`) {
		t.Fatal("the fixture is not a format 1 record")
	}
	rec, err := record.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := explain.Backtrack(rec, explain.Target{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range ch.Suspects {
		names = append(names, s.Name)
		if s.Landed.Span == nil {
			t.Errorf("suspect %s has no byte span in the request", s.Name)
		}
	}
	if got := strings.Join(names, " "); got != "unit:system-prompt tool:search_logs tool:search_logs" {
		t.Fatalf("suspects of the format 1 record: %s\n%v", got, ch)
	}
	// The request bytes a format 1 record kept whole are still there.
	if !strings.Contains(ch.String(), "bytes [") {
		t.Errorf("the chain names no byte span of the request:\n%s", ch)
	}
	run, err := store.RunFromRecord(rec, store.StatusComplete, "No errors in checkout or payments.")
	if err != nil {
		t.Fatal(err)
	}
	ar, err := audit.FromStore(run)
	if err != nil {
		t.Fatal(err)
	}
	// Saved again, the record is written in the current format (its requests
	// all whole, which format 2 allows).
	if ar.RecordFormat != record.Format {
		t.Errorf("audit run format %q, want %q", ar.RecordFormat, record.Format)
	}
	ex, err := audit.NewExporter(audit.Options{LibraryVersion: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if err := ex.AddRun(ar); err != nil {
		t.Fatal(err)
	}
	seg, err := ex.Drain()
	if err != nil {
		t.Fatal(err)
	}
	if res := audit.Verify([]*audit.Segment{seg}, audit.VerifyOptions{}); !res.Valid {
		t.Errorf("the export of a format 1 record does not verify: %+v", res)
	}
}
