// Package pgtest gives tests a disposable PostgreSQL schema on the server
// named by AGENTFOOTPRINT_TEST_POSTGRES (.ci/run starts one and sets it):
// each call creates an empty schema and returns a URL whose search_path
// points at it, and drops the schema when the test ends.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// Env names the variable that holds the test server's postgres:// URL.
const Env = "AGENTFOOTPRINT_TEST_POSTGRES"

// URL returns the test server's URL. Without one the test is skipped with
// a message saying how to enable it, or, under CI=true (where .ci/run
// starts PostgreSQL), fails: there it must run.
func URL(t testing.TB, what string) string {
	t.Helper()
	dsn := os.Getenv(Env)
	if dsn == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set under CI=true: .ci/run starts PostgreSQL and sets it, and the %s tests must run there", Env, what)
		}
		t.Skipf("%s is not set: set it to a postgres:// URL of a disposable server to run the %s tests", Env, what)
	}
	return dsn
}

// Schema creates an empty schema named prefix_<random> on the test server
// and returns a URL whose search_path is that schema; the schema is dropped
// when the test ends. what names the tests in the skip message.
func Schema(t testing.TB, prefix, what string) string {
	t.Helper()
	dsn := URL(t, what)
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatalf("connecting to %s: %v", Env, err)
	}
	defer admin.Close(ctx)
	var b [6]byte
	rand.Read(b[:])
	schema := prefix + "_" + hex.EncodeToString(b[:])
	if _, err := admin.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatalf("creating schema %s: %v", schema, err)
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
