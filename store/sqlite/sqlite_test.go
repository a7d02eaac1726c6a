// This file runs the conformance suite and the backend-specific checks (file creation,
// schema version guard, default path) against the SQLite store.

package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/internal/backend/stored"
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

// TestSchema2Upgrades writes half a conversation into a store laid out as schema 2 (no row
// versions), reopens it (schema 3 adds them) and writes the rest: every turn reads back.
func TestSchema2Upgrades(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "runs.db")
	s, err := open(ctx, path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	if _, err := s.db.ExecContext(ctx, `DROP TABLE run_versions; ALTER TABLE runs DROP COLUMN version;
		UPDATE agentfootprint_meta SET value = '2' WHERE key = 'schema_version'`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	// Schema 2 rows: written whole, as a schema 2 writer would lay them out (no deltas).
	old, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	runs := storetest.ConversationRuns(6)
	for _, r := range runs[:3] {
		if _, err := old.ExecContext(ctx, `INSERT INTO runs (id, session_id, agent_id, started_at, ended_at, status, answer, record, events, blob_list)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`, r.ID, r.SessionID, r.AgentID, nanos(r.StartedAt), nanos(r.EndedAt), string(r.Status), r.Answer,
			[]byte(r.Record), []byte(r.Events)); err != nil {
			t.Fatal(err)
		}
		for _, b := range r.Blobs {
			d := store.Digest(b.Data)
			if _, err := old.ExecContext(ctx, `INSERT INTO blobs (sha256, size, data) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`, d, len(b.Data), b.Data); err != nil {
				t.Fatal(err)
			}
			if _, err := old.ExecContext(ctx, `INSERT INTO run_blobs (run_id, sha256) VALUES (?, ?) ON CONFLICT DO NOTHING`, r.ID, d); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := old.ExecContext(ctx, `INSERT INTO agentfootprint_meta (key, value) VALUES ('last:session:conversation', ?)
			ON CONFLICT (key) DO UPDATE SET value = excluded.value`, r.ID); err != nil {
			t.Fatal(err)
		}
	}
	old.Close()
	up, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open(schema 2 store): %v", err)
	}
	defer up.Close()
	for _, r := range runs[3:] {
		if err := up.PutRun(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range runs {
		got, err := up.GetRun(ctx, r.ID)
		if err != nil || !bytes.Equal(got.Record, r.Record) || !bytes.Equal(got.Events, r.Events) || len(got.Blobs) != len(r.Blobs) {
			t.Fatalf("GetRun(%s) after the upgrade: %v", r.ID, err)
		}
	}
	var version string
	if err := up.(*runStore).db.QueryRowContext(ctx, `SELECT value FROM agentfootprint_meta WHERE key = 'schema_version'`).Scan(&version); err != nil || version != "3" {
		t.Errorf("schema_version = %q, %v; want 3", version, err)
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

func TestOldRowsRead(t *testing.T) {
	storetest.RunOldRows(t, openTemp, func(s store.Store, run *store.Run) error {
		st := s.(*runStore)
		st.mode = stored.Whole
		defer func() { st.mode = stored.Compact }()
		return st.PutRun(context.Background(), run)
	})
}

// TestSchema1FileUpgrades opens a store file written by schema 1 (its tables, its version,
// a run row and blob rows as that code wrote them): Open upgrades it to the current schema
// and the run reads back as it was written.
func TestSchema1FileUpgrades(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v1.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	run := storetest.ConversationRuns(3)[2]
	if err := run.Validate(); err != nil {
		t.Fatal(err)
	}
	stmts := []struct {
		q    string
		args []any
	}{
		{schemaV1, nil},
		{`INSERT INTO agentfootprint_meta (key, value) VALUES ('schema_version', '1')`, nil},
		{`INSERT INTO runs (id, session_id, agent_id, started_at, ended_at, status, answer, record, events) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			[]any{run.ID, run.SessionID, run.AgentID, run.StartedAt.UnixNano(), run.EndedAt.UnixNano(), string(run.Status), run.Answer, []byte(run.Record), []byte(run.Events)}},
	}
	for _, b := range run.Blobs {
		stmts = append(stmts,
			struct {
				q    string
				args []any
			}{`INSERT OR IGNORE INTO blobs (sha256, size, data) VALUES (?, ?, ?)`, []any{b.SHA256, len(b.Data), append([]byte{}, b.Data...)}},
			struct {
				q    string
				args []any
			}{`INSERT OR IGNORE INTO run_blobs (run_id, sha256) VALUES (?, ?)`, []any{run.ID, b.SHA256}})
	}
	for _, st := range stmts {
		if _, err := db.ExecContext(ctx, st.q, st.args...); err != nil {
			t.Fatalf("%s: %v", st.q, err)
		}
	}
	db.Close()

	s, err := open(ctx, path)
	if err != nil {
		t.Fatalf("Open(schema 1 file): %v", err)
	}
	defer s.Close()
	var version string
	if err := s.db.QueryRowContext(ctx, `SELECT value FROM agentfootprint_meta WHERE key = 'schema_version'`).Scan(&version); err != nil || version != strconv.Itoa(store.SchemaVersion) {
		t.Errorf("schema_version after Open = %q, %v; want %d", version, err, store.SchemaVersion)
	}
	got, err := s.GetRun(ctx, run.ID)
	if err != nil {
		t.Fatalf("GetRun: %v", err)
	}
	if !bytes.Equal(got.Record, run.Record) || !bytes.Equal(got.Events, run.Events) || len(got.Blobs) != 5 {
		t.Errorf("the schema 1 run does not read back as written")
	}
	// New runs of the same conversation go in the current layout beside it.
	for _, r := range storetest.ConversationRuns(5)[3:] {
		if err := s.PutRun(ctx, r); err != nil {
			t.Fatal(err)
		}
		if got, err := s.GetRun(ctx, r.ID); err != nil || !bytes.Equal(got.Record, r.Record) {
			t.Errorf("run %s after the upgrade: %v", r.ID, err)
		}
	}
}

// TestConversationIsCompacted: the runs of a conversation are written as forms whose
// chunks are shared, and the store holds far fewer bytes than the runs' own.
func TestConversationIsCompacted(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t).(*runStore)
	defer s.Close()
	runs := storetest.ConversationRuns(8)
	given := 0
	for _, r := range runs {
		if err := s.PutRun(ctx, r); err != nil {
			t.Fatal(err)
		}
		given += len(r.Record) + len(r.Events)
		for _, b := range r.Blobs {
			given += len(b.Data)
		}
	}
	var forms, chunks, held int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM runs WHERE substr(record, 1, 4) = X'00616673'`).Scan(&forms); err != nil {
		t.Fatal(err)
	}
	if err := s.db.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(length(data)), 0) FROM chunks`).Scan(&chunks, &held); err != nil {
		t.Fatal(err)
	}
	var rows int
	if err := s.db.QueryRowContext(ctx, `SELECT (SELECT sum(length(record) + length(events)) FROM runs) + (SELECT coalesce(sum(length(data)), 0) FROM blobs)
		+ (SELECT coalesce(sum(length(data)), 0) FROM blob_data)`).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if forms != len(runs) || chunks == 0 {
		t.Errorf("%d of %d records are forms, %d chunks; want every record a form and shared chunks", forms, len(runs), chunks)
	}
	// Every turn after the first is a delta on the turn before it (layout version 2).
	var deltas int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM runs WHERE substr(record, 1, 5) = X'0061667302'`).Scan(&deltas); err != nil {
		t.Fatal(err)
	}
	if deltas != len(runs)-1 {
		t.Errorf("%d of the %d turns after the first are deltas; want all", deltas, len(runs)-1)
	}
	if total := rows + held; total*3 > given {
		t.Errorf("the store holds %d bytes for runs of %d bytes; want under a third", total, given)
	}
}
