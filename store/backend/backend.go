// Package backend opens the store a command-line flag names: a PostgreSQL URL, a SQLite
// file path, or (empty) the default SQLite file under the user's data directory. It exists
// so that commands do not each repeat the choice.
package backend

import (
	"context"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/store"
	"github.com/agentfootprint/agentfootprint-go/store/postgres"
	"github.com/agentfootprint/agentfootprint-go/store/sqlite"
)

// Open opens the store named by target:
//
//   - "" — the SQLite file at sqlite.DefaultPath(), created on first use;
//   - "postgres://…" or "postgresql://…" — a PostgreSQL database (schema created on first use);
//   - anything else — a SQLite file path, created on first use.
//
// It returns the store and a human-readable name for messages (the file path, or
// "postgres database/schema"; never the password of a URL).
func Open(ctx context.Context, target string) (store.Store, string, error) {
	if strings.HasPrefix(target, "postgres://") || strings.HasPrefix(target, "postgresql://") {
		s, err := postgres.Open(ctx, target)
		if err != nil {
			return nil, "", err
		}
		return s, "postgres " + s.Where(), nil
	}
	path := target
	if path == "" {
		p, err := sqlite.DefaultPath()
		if err != nil {
			return nil, "", err
		}
		path = p
	}
	s, err := sqlite.Open(ctx, path)
	if err != nil {
		return nil, "", err
	}
	return s, path, nil
}
