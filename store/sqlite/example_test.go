// This file shows the embedded store as a runnable example.

package sqlite_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/agentfootprint/agentfootprint-go/store"
	"github.com/agentfootprint/agentfootprint-go/store/sqlite"
)

func ExampleOpen() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "afstore")
	defer os.RemoveAll(dir)

	s, err := sqlite.Open(ctx, filepath.Join(dir, "runs.db")) // created on first use
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()

	started := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	err = s.PutRun(ctx, &store.Run{
		RunInfo: store.RunInfo{ID: "run-1", SessionID: "conv-1", AgentID: "refunds",
			StartedAt: started, EndedAt: started.Add(2 * time.Second), Status: store.StatusComplete, Answer: "APPROVED"},
		Record: json.RawMessage(`{"format":"agentfootprint-go.record/1"}`),
		Blobs:  []store.Blob{{Data: []byte(`{"model":"scripted"}`)}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	runs, _ := s.ListRuns(ctx, store.Filter{SessionID: "conv-1"})
	for _, r := range runs {
		fmt.Println(r.ID, r.Status, r.EndedAt.Sub(r.StartedAt), r.Answer)
	}
	run, _ := s.GetRun(ctx, "run-1")
	body, _ := s.GetBlob(ctx, run.Blobs[0].SHA256)
	fmt.Printf("%s\n", body)

	_, err = s.GetRun(ctx, "run-2")
	fmt.Println(errors.Is(err, store.ErrNotFound), err)
	// Output:
	// run-1 complete 2s APPROVED
	// {"model":"scripted"}
	// true store: run "run-2" not found
}
