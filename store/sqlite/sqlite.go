// This file holds opening (path, pragmas, schema creation and the version guard). The reads
// and writes are in runs.go.

package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/agentfootprint/agentfootprint-go/internal/backend/stored"
	"github.com/agentfootprint/agentfootprint-go/store"
	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver
)

// runStore is the store.Store Open returns, backed by one SQLite file.
type runStore struct {
	db     *sql.DB
	path   string
	closed atomic.Bool
	// writeMu serialises this process's writers: SQLite admits one writer at a time, and
	// waiting here is cheaper than SQLite's sleep-and-retry busy handler. Other processes
	// are still waited for through busy_timeout.
	writeMu sync.Mutex

	// mode is how PutRun lays out what it writes: stored.Compact, except in tests that
	// write the layout of schema 1 (stored.Whole) or measure the encoding against it.
	mode stored.Mode
	// encoders keeps the encoders of finished writes (each holds DEFLATE writers of about a
	// megabyte) for the next ones.
	encoders sync.Pool

	// views keeps the last runs written, as the bases of the runs after them.
	views stored.ViewCache
	// midPut, when set by a test, runs inside PutRun's transaction after the run row and
	// the first half of its blobs are written: the place a crash does the most harm.
	midPut func()
}

var _ store.Store = (*runStore)(nil)

// DefaultPath returns where runs are kept when no --store path is given:
// $XDG_DATA_HOME/agentfootprint/runs.db, else ~/.local/share/agentfootprint/runs.db on
// Unix-like systems, else agentfootprint/runs.db under os.UserConfigDir (macOS
// ~/Library/Application Support, Windows %AppData%).
func DefaultPath() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "agentfootprint", "runs.db"), nil
	}
	switch runtime.GOOS {
	case "darwin", "windows", "ios", "plan9":
	default:
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, ".local", "share", "agentfootprint", "runs.db"), nil
		}
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("sqlite: no data directory for the default store (give a path): %w", err)
	}
	return filepath.Join(dir, "agentfootprint", "runs.db"), nil
}

// Open opens the store file at path, creating the file, its directory (mode 0700) and the
// schema on first use. It refuses a path containing '?', a file that is not an
// agentfootprint store, and a store written by a newer schema version
// (*store.SchemaVersionError). The store is safe for concurrent use; Close releases the
// file.
func Open(ctx context.Context, path string) (store.Store, error) {
	s, err := open(ctx, path)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// open is Open with the concrete type, for this package's tests.
func open(ctx context.Context, path string) (*runStore, error) {
	if path == "" {
		return nil, errors.New("sqlite: empty store path")
	}
	if strings.ContainsRune(path, '?') {
		return nil, fmt.Errorf("sqlite: store path %q contains '?', which SQLite would read as options", path)
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("sqlite: creating the directory for %s: %w", path, err)
		}
	}
	dsn := path + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("sqlite: opening %s: %w", path, err)
	}
	db.SetMaxOpenConns(4)
	s := &runStore{db: db, path: path, mode: stored.Compact}
	if err := s.initSchema(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// Close closes the database. It is safe to call more than once.
func (s *runStore) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	return s.db.Close()
}

const schemaV1 = `
CREATE TABLE IF NOT EXISTS agentfootprint_meta (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS runs (
	id         TEXT PRIMARY KEY,
	session_id TEXT NOT NULL,
	agent_id   TEXT NOT NULL,
	started_at INTEGER NOT NULL,
	ended_at   INTEGER NOT NULL,
	status     TEXT NOT NULL,
	answer     TEXT NOT NULL,
	record     BLOB NOT NULL,
	events     BLOB
);
CREATE INDEX IF NOT EXISTS runs_by_start ON runs (started_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS runs_by_session ON runs (session_id, started_at DESC);
CREATE TABLE IF NOT EXISTS blobs (
	sha256 TEXT PRIMARY KEY,
	size   INTEGER NOT NULL,
	data   BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS run_blobs (
	run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	sha256 TEXT NOT NULL REFERENCES blobs (sha256),
	PRIMARY KEY (run_id, sha256)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS checkpoints (
	session_id TEXT PRIMARY KEY,
	run_id     TEXT NOT NULL,
	data       BLOB NOT NULL,
	updated_at INTEGER NOT NULL
);
`

// schemaV2 is what schema 2 adds to schema 1: the chunks that stored forms of records,
// events and blobs refer to (see internal/backend/stored), each kept once under the SHA-256
// of its bytes, and a run row's list of its blobs (32-byte digests; NULL in rows written
// under schema 1, whose blobs are listed by run_blobs). Rows written under schema 1 read as
// they are.
const schemaV2 = `
CREATE TABLE IF NOT EXISTS chunks (
	sha256 BLOB PRIMARY KEY,
	data   BLOB NOT NULL
);
ALTER TABLE runs ADD COLUMN blob_list BLOB;
`

// schemaV3 is what schema 3 adds to schema 2: each run row's version (0 when first written,
// one more each time it is written again), the earlier versions of rows written again, kept
// because the runs after one may be stored as deltas on it (see internal/backend/stored), and
// blob_data, where blob rows are written since, keyed by the binary digest (32 bytes instead
// of 64 hex digits; the size, which nothing read, is left out). Blob rows written before stay
// in blobs and are read from there.
const schemaV3 = `
CREATE TABLE IF NOT EXISTS blob_data (
	sha256 BLOB PRIMARY KEY,
	data   BLOB NOT NULL
) WITHOUT ROWID;
ALTER TABLE runs ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
CREATE TABLE IF NOT EXISTS run_versions (
	id        TEXT NOT NULL,
	version   INTEGER NOT NULL,
	record    BLOB NOT NULL,
	events    BLOB,
	blob_list BLOB,
	PRIMARY KEY (id, version)
) WITHOUT ROWID;
`

// initSchema creates the schema in an empty file, or checks the version of an existing one.
func (s *runStore) initSchema(ctx context.Context) error {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("sqlite: opening %s: %w", s.path, err)
	}
	defer conn.Close()
	// BEGIN IMMEDIATE takes the write lock first, so two processes creating the same new
	// file do not race between the check and the creation.
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return fmt.Errorf("sqlite: opening %s: %w", s.path, err)
	}
	committed := false
	defer func() {
		if !committed {
			conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK")
		}
	}()
	var tables int
	if err := conn.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table'`).Scan(&tables); err != nil {
		return fmt.Errorf("sqlite: reading %s: %w", s.path, err)
	}
	var version string
	err = conn.QueryRowContext(ctx, `SELECT value FROM agentfootprint_meta WHERE key = 'schema_version'`).Scan(&version)
	switch {
	case err == nil:
		n, perr := strconv.Atoi(version)
		if perr != nil {
			return fmt.Errorf("sqlite: %s: schema_version %q is not a number", s.path, version)
		}
		if n > store.SchemaVersion {
			return &store.SchemaVersionError{Where: s.path, Found: n, Supported: store.SchemaVersion}
		}
		if n < store.SchemaVersion {
			// Schema 1 → 2 adds the chunk table, 2 → 3 the row versions; the rows already
			// there are read as they are.
			upgrade := schemaV3
			if n < 2 {
				upgrade = schemaV2 + schemaV3
			}
			if _, err := conn.ExecContext(ctx, upgrade); err != nil {
				return fmt.Errorf("sqlite: upgrading the schema of %s: %w", s.path, err)
			}
			if _, err := conn.ExecContext(ctx, `UPDATE agentfootprint_meta SET value = ? WHERE key = 'schema_version'`,
				strconv.Itoa(store.SchemaVersion)); err != nil {
				return fmt.Errorf("sqlite: upgrading the schema of %s: %w", s.path, err)
			}
		}
	case tables > 0:
		return fmt.Errorf("sqlite: %s is a SQLite database but not an agentfootprint store (no schema_version)", s.path)
	default:
		if _, err := conn.ExecContext(ctx, schemaV1+schemaV2+schemaV3); err != nil {
			return fmt.Errorf("sqlite: creating the schema in %s: %w", s.path, err)
		}
		if _, err := conn.ExecContext(ctx, `INSERT INTO agentfootprint_meta (key, value) VALUES ('schema_version', ?)`,
			strconv.Itoa(store.SchemaVersion)); err != nil {
			return fmt.Errorf("sqlite: creating the schema in %s: %w", s.path, err)
		}
	}
	if _, err := conn.ExecContext(ctx, "COMMIT"); err != nil {
		return fmt.Errorf("sqlite: creating the schema in %s: %w", s.path, err)
	}
	committed = true
	return nil
}

func (s *runStore) checkOpen() error {
	if s.closed.Load() {
		return store.ErrClosed
	}
	return nil
}
