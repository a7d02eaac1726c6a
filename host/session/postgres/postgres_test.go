// This file runs the session battery against PostgreSQL. The server comes from
// AGENTFOOTPRINT_TEST_POSTGRES (a postgres:// URL, as .ci/run sets it); each test gets its
// own schema, dropped afterwards. Unset, the tests skip, except under CI=true, where they
// fail: CI must run them.

package postgres_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/host/session"
	"github.com/agentfootprint/agentfootprint-go/host/session/postgres"
	"github.com/agentfootprint/agentfootprint-go/host/session/sessiontest"
	"github.com/jackc/pgx/v5"
)

const dsnEnv = "AGENTFOOTPRINT_TEST_POSTGRES"

// freshSchema creates an empty schema and returns a DSN whose search_path points at it.
func freshSchema(t testing.TB) string {
	t.Helper()
	dsn := os.Getenv(dsnEnv)
	if dsn == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set under CI=true: .ci/run must start PostgreSQL for the session store battery", dsnEnv)
		}
		t.Skipf("%s is not set: set it to a postgres:// URL of a disposable server to run the PostgreSQL session tests", dsnEnv)
	}
	var b [6]byte
	rand.Read(b[:])
	schema := "host_test_" + hex.EncodeToString(b[:])
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c, err := pgx.Connect(context.Background(), dsn)
		if err == nil {
			c.Exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
			c.Close(context.Background())
		}
	})
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

func TestBattery(t *testing.T) {
	sessiontest.Run(t, func(t testing.TB) func() (session.Store, error) {
		dsn := freshSchema(t)
		return func() (session.Store, error) { return postgres.Open(context.Background(), dsn) }
	})
}
