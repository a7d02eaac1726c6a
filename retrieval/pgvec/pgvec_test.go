// The index conformance suite and the memory walk-back against the
// PostgreSQL run store, each test in a schema of its own. The server comes
// from AGENTFOOTPRINT_TEST_POSTGRES; without it the tests skip, except under
// CI, where they fail.

package pgvec_test

import (
	"context"
	"github.com/agentfootprint/agentfootprint-go/internal/pgtest"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/retrieval"
	"github.com/agentfootprint/agentfootprint-go/retrieval/indextest"
	"github.com/agentfootprint/agentfootprint-go/retrieval/pgvec"
	"github.com/agentfootprint/agentfootprint-go/store/postgres"
)

// freshSchema returns a DSN whose search_path is a new schema, dropped after
// the test.
func freshSchema(t testing.TB) string {
	t.Helper()
	return pgtest.Schema(t, "afvec", "PostgreSQL index")
}

func open(t testing.TB, dsn, corpus string, dims int) retrieval.Index {
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
