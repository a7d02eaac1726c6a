// This file runs the conformance suite and the backend-specific checks against PostgreSQL.
// The server comes from AGENTFOOTPRINT_TEST_POSTGRES (a postgres:// URL); each test gets
// its own schema, dropped afterwards.

package postgres

import (
	"context"
	"errors"
	"github.com/agentfootprint/agentfootprint-go/internal/pgtest"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/internal/backend/stored"
	"github.com/agentfootprint/agentfootprint-go/store"
	"github.com/agentfootprint/agentfootprint-go/store/storetest"
	"github.com/jackc/pgx/v5"
)

const dsnEnv = "AGENTFOOTPRINT_TEST_POSTGRES"

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
	if !strings.HasPrefix(s2.Where(), "postgres/aftest_") {
		t.Errorf("Where() = %q, want database/schema", s2.Where())
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	ctx := context.Background()
	dsn := freshSchema(t)
	s, err := Open(ctx, dsn)
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
	where := s.Where()
	s.Close()
	_, err = Open(ctx, dsn)
	var sv *store.SchemaVersionError
	if !errors.As(err, &sv) || !errors.Is(err, store.ErrSchemaTooNew) {
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
		st := s.(*Store)
		st.mode = stored.Whole
		defer func() { st.mode = stored.Compact }()
		return st.PutRun(context.Background(), run)
	})
}
