// This file runs the session battery against PostgreSQL. The server comes from
// AGENTFOOTPRINT_TEST_POSTGRES (a postgres:// URL, as .ci/run sets it); each test gets its
// own schema, dropped afterwards. Unset, the tests skip, except under CI=true, where they
// fail: CI must run them.

package postgres_test

import (
	"context"
	"github.com/agentfootprint/agentfootprint-go/internal/pgtest"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/host/session"
	"github.com/agentfootprint/agentfootprint-go/host/session/postgres"
	"github.com/agentfootprint/agentfootprint-go/host/session/sessiontest"
)

// freshSchema creates an empty schema and returns a DSN whose search_path points at it.
func freshSchema(t testing.TB) string {
	t.Helper()
	return pgtest.Schema(t, "host_test", "PostgreSQL session store")
}

func TestBattery(t *testing.T) {
	sessiontest.Run(t, func(t testing.TB) func() (session.Store, error) {
		dsn := freshSchema(t)
		return func() (session.Store, error) { return postgres.Open(context.Background(), dsn) }
	})
}
