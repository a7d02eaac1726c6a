// This file runs the conformance suite and the backend-specific checks against PostgreSQL.
// The server comes from AGENTFOOTPRINT_TEST_POSTGRES (a postgres:// URL); each test gets
// its own schema, dropped afterwards.

package postgres

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/agentfootprint/agentfootprint-go/internal/pgtest"
	"strconv"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/internal/backend/stored"
	"github.com/agentfootprint/agentfootprint-go/store"
	"github.com/agentfootprint/agentfootprint-go/store/storetest"
	"github.com/jackc/pgx/v5"
)

// testDSN returns the server URL or skips the test, saying how to enable it.
func testDSN(t testing.TB) string {
	t.Helper()
	return pgtest.URL(t, "PostgreSQL store")
}

// freshSchema creates an empty schema and returns a DSN whose search_path points at it.
func freshSchema(t testing.TB) string {
	t.Helper()
	return pgtest.Schema(t, "aftest", "PostgreSQL store")
}

func openFresh(t testing.TB) store.Store {
	t.Helper()
	s, err := Open(context.Background(), freshSchema(t))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return s
}

func TestConformance(t *testing.T) {
	testDSN(t)
	storetest.Run(t, openFresh)
}

func TestSchemaCreatedOnceAndReopened(t *testing.T) {
	ctx := context.Background()
	dsn := freshSchema(t)
	// Several processes starting together: the advisory lock makes one create the schema.
	errs := make(chan error, 3)
	for range 3 {
		go func() {
			s, err := Open(ctx, dsn)
			if err == nil {
				s.Close()
			}
			errs <- err
		}()
	}
	for range 3 {
		if err := <-errs; err != nil {
			t.Errorf("concurrent Open: %v", err)
		}
	}
	s, err := Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.PutRun(ctx, storetest.SampleRun("kept", 0)); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(ctx, dsn)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer s2.Close()
	if _, err := s2.GetRun(ctx, "kept"); err != nil {
		t.Errorf("GetRun from a second store on the same schema: %v", err)
	}
	if got := fmt.Sprint(s2); !strings.HasPrefix(got, "postgres postgres/aftest_") {
		t.Errorf("the store prints as %q, want postgres database/schema", got)
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	ctx := context.Background()
	dsn := freshSchema(t)
	s, err := open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	err = s.with(ctx, func(c *pgx.Conn) error {
		_, err := c.Exec(ctx, `UPDATE agentfootprint_meta SET value = '9' WHERE key = 'schema_version'`)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	where := s.where
	s.Close()
	_, err = Open(ctx, dsn)
	var sv *store.SchemaVersionError
	if !errors.As(err, &sv) {
		t.Fatalf("Open(newer schema) = %v, want *SchemaVersionError", err)
	}
	if sv.Found != 9 || sv.Supported != store.SchemaVersion || !strings.Contains(err.Error(), where) {
		t.Errorf("error = %+v (%v), want found 9 and the schema named", sv, err)
	}
}

func TestUnreachableServer(t *testing.T) {
	testDSN(t)
	_, err := Open(context.Background(), "postgres://postgres@127.0.0.1:1/postgres?sslmode=disable&connect_timeout=2")
	if err == nil {
		t.Fatal("Open(unreachable) succeeded")
	}
	if _, err := Open(context.Background(), "postgres://%zz"); err == nil {
		t.Error("Open(malformed DSN) succeeded")
	}
}

func BenchmarkPutRun(b *testing.B) {
	s := openFresh(b)
	defer s.Close()
	storetest.BenchmarkPutRun(b, s)
}

func BenchmarkPutRunParallel(b *testing.B) {
	s := openFresh(b)
	defer s.Close()
	storetest.BenchmarkPutRunParallel(b, s)
}

func TestOldRowsRead(t *testing.T) {
	testDSN(t)
	storetest.RunOldRows(t, openFresh, func(s store.Store, run *store.Run) error {
		st := s.(*runStore)
		st.mode = stored.Whole
		defer func() { st.mode = stored.Compact }()
		return st.PutRun(context.Background(), run)
	})
}

// TestSchema1Upgrades opens a schema written by schema 1 (its tables, its version, a run and
// its blobs as that code wrote them): Open upgrades it and the run reads back as written.
func TestSchema1Upgrades(t *testing.T) {
	ctx := context.Background()
	dsn := freshSchema(t)
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	run := storetest.ConversationRuns(3)[2]
	if err := run.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, stmt := range schemaV1 {
		if _, err := conn.Exec(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	if _, err := conn.Exec(ctx, `INSERT INTO agentfootprint_meta (key, value) VALUES ('schema_version', '1')`); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `INSERT INTO agentfootprint_runs (id, session_id, agent_id, started_at, ended_at, status, answer, record, events)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, run.ID, run.SessionID, run.AgentID, run.StartedAt.UnixNano(), run.EndedAt.UnixNano(),
		string(run.Status), run.Answer, []byte(run.Record), []byte(run.Events)); err != nil {
		t.Fatal(err)
	}
	for _, b := range run.Blobs {
		if _, err := conn.Exec(ctx, `INSERT INTO agentfootprint_blobs (sha256, size, data) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
			b.SHA256, len(b.Data), append([]byte{}, b.Data...)); err != nil {
			t.Fatal(err)
		}
		if _, err := conn.Exec(ctx, `INSERT INTO agentfootprint_run_blobs (run_id, sha256) VALUES ($1, $2) ON CONFLICT DO NOTHING`, run.ID, b.SHA256); err != nil {
			t.Fatal(err)
		}
	}
	conn.Close(ctx)

	s, err := open(ctx, dsn)
	if err != nil {
		t.Fatalf("Open(schema 1): %v", err)
	}
	defer s.Close()
	var version string
	if err := s.with(ctx, func(c *pgx.Conn) error {
		return c.QueryRow(ctx, `SELECT value FROM agentfootprint_meta WHERE key = 'schema_version'`).Scan(&version)
	}); err != nil || version != strconv.Itoa(store.SchemaVersion) {
		t.Errorf("schema_version after Open = %q, %v; want %d", version, err, store.SchemaVersion)
	}
	got, err := s.GetRun(ctx, run.ID)
	if err != nil {
		t.Fatalf("GetRun: %v", err)
	}
	if !bytes.Equal(got.Record, run.Record) || !bytes.Equal(got.Events, run.Events) || len(got.Blobs) != 5 {
		t.Errorf("the schema 1 run does not read back as written")
	}
	for _, r := range storetest.ConversationRuns(5)[3:] {
		if err := s.PutRun(ctx, r); err != nil {
			t.Fatal(err)
		}
		if got, err := s.GetRun(ctx, r.ID); err != nil || !bytes.Equal(got.Record, r.Record) {
			t.Errorf("run %s after the upgrade: %v", r.ID, err)
		}
	}
}
