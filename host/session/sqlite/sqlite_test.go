// This file runs the session battery against SQLite, one file per test.

package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/host/session"
	"github.com/agentfootprint/agentfootprint-go/host/session/sessiontest"
	"github.com/agentfootprint/agentfootprint-go/host/session/sqlite"
	runstore "github.com/agentfootprint/agentfootprint-go/store/sqlite"
)

func TestBattery(t *testing.T) {
	sessiontest.Run(t, func(t testing.TB) func() (session.Store, error) {
		path := filepath.Join(t.TempDir(), "host.db")
		return func() (session.Store, error) { return sqlite.Open(context.Background(), path) }
	})
}

// TestSharesTheRunStoreFile: the session tables live in a file the run store still opens.
func TestSharesTheRunStoreFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "host.db")
	s, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	rs, err := runstore.Open(context.Background(), path)
	if err != nil {
		t.Fatalf("the run store refuses the file the session store made: %v", err)
	}
	rs.Close()
}
