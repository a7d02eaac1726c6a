// This file proves a writer whose process dies inside PutRun's transaction leaves no
// visible run in PostgreSQL: the child process (this test binary) exits mid-transaction and
// the server rolls the transaction back when the connection drops.

package postgres

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/store"
	"github.com/agentfootprint/agentfootprint-go/store/storetest"
)

const crashEnv = "AGENTFOOTPRINT_POSTGRES_CRASH_CHILD"

// TestCrashChild is the child half of TestCrashMidWrite; it does nothing unless the parent
// set crashEnv to the DSN.
func TestCrashChild(t *testing.T) {
	dsn := os.Getenv(crashEnv)
	if dsn == "" {
		t.Skip("helper process for TestCrashMidWrite")
	}
	s, err := open(context.Background(), dsn)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	s.midPut = func() { os.Exit(3) }
	r := storetest.BenchRun("torn", 1)
	r.Blobs = append(r.Blobs, store.Blob{Data: []byte("blob only the torn run has")})
	s.PutRun(context.Background(), r)
	os.Exit(4)
}

func TestCrashMidWrite(t *testing.T) {
	ctx := context.Background()
	dsn := freshSchema(t)
	s, err := open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	before := storetest.SampleRun("torn", 0)
	if err := s.PutRun(ctx, before); err != nil {
		t.Fatal(err)
	}

	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashEnv+"="+dsn)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 3 {
		t.Fatalf("child = %v, want exit status 3 from inside the transaction; output:\n%s", err, out)
	}

	got, err := s.GetRun(ctx, "torn")
	if err != nil {
		t.Fatalf("GetRun(torn): %v", err)
	}
	if got.Answer != before.Answer || string(got.Record) != string(before.Record) || len(got.Blobs) != 2 {
		t.Errorf("after the crash the run is %q with %d blobs, want the committed version with 2", got.Answer, len(got.Blobs))
	}
	if _, err := s.GetBlob(ctx, store.Digest([]byte("blob only the torn run has"))); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a blob from the torn write is visible: %v", err)
	}
}
