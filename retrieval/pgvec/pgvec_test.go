// The index conformance suite and the memory walk-back against the
// PostgreSQL run store, each test in a schema of its own. The server comes
// from AGENTFOOTPRINT_TEST_POSTGRES; without it the tests skip, except under
// CI, where they fail.

package pgvec_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/retrieval"
	"github.com/agentfootprint/agentfootprint-go/retrieval/indextest"
	"github.com/agentfootprint/agentfootprint-go/retrieval/pgvec"
	"github.com/agentfootprint/agentfootprint-go/store/postgres"
	"github.com/jackc/pgx/v5"
)

const dsnEnv = "AGENTFOOTPRINT_TEST_POSTGRES"

// freshSchema returns a DSN whose search_path is a new schema, dropped after
// the test.
func freshSchema(t testing.TB) string {
	t.Helper()
	dsn := os.Getenv(dsnEnv)
	if dsn == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set under CI: .ci/run starts PostgreSQL and sets it", dsnEnv)
		}
		t.Skipf("%s is not set: set it to a postgres:// URL of a disposable server to run the PostgreSQL index tests", dsnEnv)
	}
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatalf("connecting to %s: %v", dsnEnv, err)
	}
	defer admin.Close(ctx)
	var b [6]byte
	rand.Read(b[:])
	schema := "afvec_" + hex.EncodeToString(b[:])
	if _, err := admin.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatalf("creating schema: %v", err)
	}
	t.Cleanup(func() {
		c, err := pgx.Connect(context.Background(), dsn)
		if err != nil {
			return
		}
		defer c.Close(context.Background())
		c.Exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
	})
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	return dsn + sep + "search_path=" + schema
}

func open(t testing.TB, dsn, corpus string, dims int) *pgvec.Index {
	t.Helper()
	idx, err := pgvec.Open(context.Background(), dsn, corpus, dims)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { idx.Close() })
	return idx
}

func TestConformance(t *testing.T) {
	dsn := freshSchema(t)
	indextest.Run(t, func(t *testing.T, corpus string, dims int) retrieval.Index {
		return open(t, dsn, corpus, dims)
	})
}

func TestMemoryWalkBackInTheRunStoreDatabase(t *testing.T) {
	dsn := freshSchema(t)
	st, err := postgres.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	indextest.MemoryWalkBack(t, open(t, dsn, "support-memory", 64), st)
}
