// This file proves a writer that dies inside PutRun's transaction leaves no visible run: a
// child process (this test binary) is killed mid-write, then the parent reopens the file.

package sqlite

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/store"
	"github.com/agentfootprint/agentfootprint-go/store/storetest"
)

const crashEnv = "AGENTFOOTPRINT_SQLITE_CRASH_CHILD"

// TestCrashChild is the child half of TestCrashMidWrite; it does nothing unless the parent
// set crashEnv to the store path.
func TestCrashChild(t *testing.T) {
	path := os.Getenv(crashEnv)
	if path == "" {
		t.Skip("helper process for TestCrashMidWrite")
	}
	s, err := open(context.Background(), path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	// Die the hard way, with the transaction open and half of the blobs written.
	s.midPut = func() { os.Exit(3) }
	r := storetest.BenchRun("torn", 1)
	r.Blobs = append(r.Blobs, store.Blob{Data: []byte("blob only the torn run has")})
	s.PutRun(context.Background(), r)
	os.Exit(4) // PutRun returned: the hook did not fire
}

func TestCrashMidWrite(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "runs.db")
	s, err := open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	// A committed version of the same run must survive the torn rewrite untouched.
	before := storetest.SampleRun("torn", 0)
	if err := s.PutRun(ctx, before); err != nil {
		t.Fatal(err)
	}
	if err := s.PutRun(ctx, storetest.SampleRun("other", 0)); err != nil {
		t.Fatal(err)
	}
	s.Close()

	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashEnv+"="+path)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 3 {
		t.Fatalf("child = %v, want exit status 3 from inside the transaction; output:\n%s", err, out)
	}

	s, err = open(ctx, path)
	if err != nil {
		t.Fatalf("reopen after crash: %v", err)
	}
	defer s.Close()
	var check string
	if err := s.db.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Errorf("integrity_check = %q, %v", check, err)
	}
	got, err := s.GetRun(ctx, "torn")
	if err != nil {
		t.Fatalf("GetRun(torn): %v", err)
	}
	if got.Answer != before.Answer || string(got.Record) != string(before.Record) || len(got.Blobs) != 2 {
		t.Errorf("after the crash the run is %q with %d blobs, want the committed version %q with 2", got.Answer, len(got.Blobs), before.Answer)
	}
	if _, err := s.GetBlob(ctx, store.Digest([]byte("blob only the torn run has"))); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a blob from the torn write is visible: %v", err)
	}
	list, err := s.ListRuns(ctx, store.Filter{})
	if err != nil || len(list) != 2 {
		t.Errorf("ListRuns = %d runs, %v; want the 2 committed ones", len(list), err)
	}
}
