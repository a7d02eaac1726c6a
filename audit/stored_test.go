// This file exports a run after a round trip through the SQLite store: the export of the
// reloaded run must be byte-identical to the export of the run as written.

package audit

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/store/sqlite"
)

func TestExportAfterStoreRoundTrip(t *testing.T) {
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "runs.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	run := scriptedRun("run-stored", 3)
	if err := s.PutRun(ctx, run); err != nil {
		t.Fatal(err)
	}
	loaded, err := s.GetRun(ctx, "run-stored")
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Now: fixedNow, LibraryVersion: "v1"}
	before, err := ExportRun(run, opts)
	if err != nil {
		t.Fatal(err)
	}
	after, err := ExportRun(loaded, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(segmentBytes(t, before), segmentBytes(t, after)) {
		t.Error("the export of the reloaded run differs from the export of the run as written")
	}
	if res := VerifyFiles(VerifyOptions{}, segmentBytes(t, after)); !res.Valid || res.RecordsChecked != 1+2+5*3 {
		t.Errorf("Verify = %v", res)
	}
}
