// Package backend opens the store a command-line flag names: a PostgreSQL URL, a SQLite
// file path, or (empty) the default SQLite file under the user's data directory. It exists
// so that commands do not each repeat the choice.
package backend

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
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
		return s, fmt.Sprint(s), nil // the store prints as "postgres database/schema"
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

// MissingError is OpenExisting's refusal of a SQLite file that is not there. It wraps
// fs.ErrNotExist.
type MissingError struct {
	Path string
}

func (e *MissingError) Error() string {
	return fmt.Sprintf("no run store at %s (nothing has been stored there yet)", e.Path)
}

// Unwrap returns fs.ErrNotExist, so errors.Is(err, fs.ErrNotExist) holds.
func (e *MissingError) Unwrap() error { return fs.ErrNotExist }

// OpenExisting is Open for commands that only read: a SQLite file that does not exist is
// refused with a *MissingError instead of being created. A PostgreSQL URL opens as with Open.
func OpenExisting(ctx context.Context, target string) (store.Store, string, error) {
	if strings.HasPrefix(target, "postgres://") || strings.HasPrefix(target, "postgresql://") {
		return Open(ctx, target)
	}
	path := target
	if path == "" {
		p, err := sqlite.DefaultPath()
		if err != nil {
			return nil, "", err
		}
		path = p
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, "", &MissingError{Path: path}
	}
	return Open(ctx, path)
}
