// This file runs the conformance suite and the backend-specific checks (file creation,
// schema version guard, default path) against the SQLite store.

package sqlite

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/store"
	"github.com/agentfootprint/agentfootprint-go/store/storetest"
)

func openTemp(t testing.TB) store.Store {
	t.Helper()
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "nested", "runs.db"))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return s
}

func TestConformance(t *testing.T) {
	storetest.Run(t, openTemp)
}

func TestCreatedOnFirstUseAndReopened(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "a", "b", "runs.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	if err := s.PutRun(ctx, storetest.SampleRun("kept", 0)); err != nil {
		t.Fatalf("PutRun: %v", err)
	}
	s.Close()
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("store file not created: %v", err)
	}
	var mode string
	s2, err := open(ctx, path)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer s2.Close()
	if err := s2.db.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode = %q, %v; want wal", mode, err)
	}
	if _, err := s2.GetRun(ctx, "kept"); err != nil {
		t.Errorf("GetRun after reopen: %v", err)
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "runs.db")
	s, err := open(ctx, path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE agentfootprint_meta SET value = '7' WHERE key = 'schema_version'`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	_, err = Open(ctx, path)
	var sv *store.SchemaVersionError
	if !errors.As(err, &sv) {
		t.Fatalf("Open(newer store) = %v, want *SchemaVersionError", err)
	}
	if sv.Found != 7 || sv.Supported != store.SchemaVersion || sv.Where != path || !strings.Contains(err.Error(), path) {
		t.Errorf("error = %+v (%v), want found 7, supported %d, naming %s", sv, err, store.SchemaVersion, path)
	}
}

func TestNotAStoreRefused(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.db")
	if err := os.WriteFile(garbage, []byte(strings.Repeat("not sqlite at all ", 100)), 0o600); err != nil {
		t.Fatal(err)
	}
	if s, err := Open(ctx, garbage); err == nil {
		s.Close()
		t.Error("Open(garbage file) succeeded")
	} else if !strings.Contains(err.Error(), garbage) {
		t.Errorf("error %q does not name the file", err)
	}

	other := filepath.Join(dir, "other.db")
	s, err := open(ctx, other)
	if err != nil {
		t.Fatal(err)
	}
	s.db.ExecContext(ctx, `DROP TABLE agentfootprint_meta`)
	s.Close()
	if s, err := Open(ctx, other); err == nil {
		s.Close()
		t.Error("Open(foreign database) succeeded")
	} else if !strings.Contains(err.Error(), "not an agentfootprint store") {
		t.Errorf("error = %v, want it to say the file is not a store", err)
	}

	if _, err := Open(ctx, filepath.Join(dir, "x?mode=ro")); err == nil {
		t.Error("Open(path with '?') succeeded")
	}
	if _, err := Open(ctx, ""); err == nil {
		t.Error("Open(\"\") succeeded")
	}
}

func TestDefaultPath(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_DATA_HOME", dir)
	got, err := DefaultPath()
	if err != nil || got != filepath.Join(dir, "agentfootprint", "runs.db") {
		t.Errorf("DefaultPath() = %q, %v; want under XDG_DATA_HOME", got, err)
	}
	t.Setenv("XDG_DATA_HOME", "relative/ignored")
	t.Setenv("HOME", dir)
	got, err = DefaultPath()
	if err != nil || !strings.HasSuffix(got, filepath.Join("agentfootprint", "runs.db")) || strings.Contains(got, "relative") {
		t.Errorf("DefaultPath() with a relative XDG_DATA_HOME = %q, %v", got, err)
	}
}

func BenchmarkPutRun(b *testing.B) {
	s := openTemp(b)
	defer s.Close()
	storetest.BenchmarkPutRun(b, s)
}

func BenchmarkPutRunParallel(b *testing.B) {
	s := openTemp(b)
	defer s.Close()
	storetest.BenchmarkPutRunParallel(b, s)
}
