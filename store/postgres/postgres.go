// This file holds opening (connection, schema creation under an advisory lock, the version
// guard); reads and writes are in runs.go. Connections come from pgxpool, bounded by maxConns.

package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/agentfootprint/agentfootprint-go/internal/backend/stored"
	"github.com/agentfootprint/agentfootprint-go/store"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// maxConns bounds the connections one store opens.
const maxConns = 4

// runStore is the store.Store Open returns, backed by PostgreSQL.
type runStore struct {
	pool   *pgxpool.Pool
	where  string
	closed atomic.Bool

	// mode is how PutRun lays out what it writes: stored.Compact, except in tests that
	// write the layout of schema 1 (stored.Whole) or measure the encoding against it.
	mode stored.Mode
	// encoders keeps the encoders of finished writes (each holds DEFLATE writers of about a
	// megabyte) for the next ones.
	encoders sync.Pool

	// views keeps the last runs written, as the bases of the runs after them.
	views stored.ViewCache

	// midPut, when set by a test, runs inside PutRun's transaction after the run row and
	// the first half of its blobs are sent.
	midPut func()
}

var _ store.Store = (*runStore)(nil)

// Open connects to the database named by dsn (a postgres:// URL or a keyword/value string,
// as pgx accepts) and creates the schema on first use. It refuses an unreachable server and
// a schema written by a newer version (*store.SchemaVersionError). The store's tables are
// prefixed agentfootprint_ and live in the first schema of the connection's search_path;
// the store prints (fmt.Stringer) as "postgres database/schema", never the password of dsn.
// It is safe for concurrent use; Close releases its connections.
func Open(ctx context.Context, dsn string) (store.Store, error) {
	s, err := open(ctx, dsn)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// open is Open with the concrete type, for this package's tests.
func open(ctx context.Context, dsn string) (*runStore, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading the connection string: %w", err)
	}
	cfg.MaxConns = maxConns
	p, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	s := &runStore{pool: p, mode: stored.Compact}
	if err := s.initSchema(ctx); err != nil {
		p.Close()
		return nil, err
	}
	return s, nil
}

// String names the database and schema the store writes to, as "postgres database/schema".
func (s *runStore) String() string { return "postgres " + s.where }

// Close closes every connection. It is safe to call more than once.
func (s *runStore) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	s.pool.Close()
	return nil
}

func (s *runStore) checkOpen() error {
	if s.closed.Load() {
		return store.ErrClosed
	}
	return nil
}

var schemaV1 = []string{
	`CREATE TABLE agentfootprint_meta (
		key   text PRIMARY KEY,
		value text NOT NULL
	)`,
	`CREATE TABLE agentfootprint_runs (
		id         text PRIMARY KEY,
		session_id text NOT NULL,
		agent_id   text NOT NULL,
		started_at bigint NOT NULL,
		ended_at   bigint NOT NULL,
		status     text NOT NULL,
		answer     text NOT NULL,
		record     bytea NOT NULL,
		events     bytea
	)`,
	`CREATE INDEX agentfootprint_runs_by_start ON agentfootprint_runs (started_at DESC, id DESC)`,
	`CREATE INDEX agentfootprint_runs_by_session ON agentfootprint_runs (session_id, started_at DESC)`,
	`CREATE TABLE agentfootprint_blobs (
		sha256 text PRIMARY KEY,
		size   bigint NOT NULL,
		data   bytea NOT NULL
	)`,
	`CREATE TABLE agentfootprint_run_blobs (
		run_id text NOT NULL REFERENCES agentfootprint_runs (id) ON DELETE CASCADE,
		sha256 text NOT NULL REFERENCES agentfootprint_blobs (sha256),
		PRIMARY KEY (run_id, sha256)
	)`,
	`CREATE TABLE agentfootprint_checkpoints (
		session_id text PRIMARY KEY,
		run_id     text NOT NULL,
		data       bytea NOT NULL,
		updated_at bigint NOT NULL
	)`,
}

// schemaV2 is what schema 2 adds to schema 1: the chunks that stored forms of records,
// events and blobs refer to (see internal/backend/stored), each kept once under the SHA-256
// of its bytes, and a run row's list of its blobs (32-byte digests; NULL in rows written
// under schema 1, whose blobs are listed by agentfootprint_run_blobs). Rows written under
// schema 1 read as they are.
var schemaV2 = []string{
	`CREATE TABLE IF NOT EXISTS agentfootprint_chunks (
		sha256 bytea PRIMARY KEY,
		data   bytea NOT NULL
	)`,
	`ALTER TABLE agentfootprint_runs ADD COLUMN IF NOT EXISTS blob_list bytea`,
}

// schemaV3 is what schema 3 adds to schema 2: each run row's version (0 when first written,
// one more each time it is written again), the earlier versions of rows written again, kept
// because the runs after one may be stored as deltas on it (see internal/backend/stored), and
// agentfootprint_blob_data, where blob rows are written since, keyed by the binary digest.
// Blob rows written before stay in agentfootprint_blobs and are read from there.
var schemaV3 = []string{
	`CREATE TABLE IF NOT EXISTS agentfootprint_blob_data (
		sha256 bytea PRIMARY KEY,
		data   bytea NOT NULL
	)`,
	`ALTER TABLE agentfootprint_runs ADD COLUMN IF NOT EXISTS version bigint NOT NULL DEFAULT 0`,
	`CREATE TABLE IF NOT EXISTS agentfootprint_run_versions (
		id        text NOT NULL,
		version   bigint NOT NULL,
		record    bytea NOT NULL,
		events    bytea,
		blob_list bytea,
		PRIMARY KEY (id, version)
	)`,
}

// initSchema creates the tables, or checks the recorded version, under a transaction-scoped
// advisory lock so that processes starting together do not race.
func (s *runStore) initSchema(ctx context.Context) error {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("postgres: connecting: %w", err)
	}
	defer conn.Release()
	var db, schema string
	if err := conn.QueryRow(ctx, `SELECT current_database(), coalesce(current_schema(), '')`).Scan(&db, &schema); err != nil {
		return fmt.Errorf("postgres: connecting: %w", err)
	}
	s.where = db + "/" + schema
	if schema == "" {
		return fmt.Errorf("postgres: database %s: the search_path names no existing schema to create the store in", db)
	}
	return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.agentfootprint_store'))`); err != nil {
			return fmt.Errorf("postgres: %s: locking the schema: %w", s.where, err)
		}
		var exists bool
		if err := tx.QueryRow(ctx, `SELECT to_regclass('agentfootprint_meta') IS NOT NULL`).Scan(&exists); err != nil {
			return fmt.Errorf("postgres: %s: %w", s.where, err)
		}
		if exists {
			var version string
			err := tx.QueryRow(ctx, `SELECT value FROM agentfootprint_meta WHERE key = 'schema_version'`).Scan(&version)
			if errors.Is(err, pgx.ErrNoRows) {
				return fmt.Errorf("postgres: %s: agentfootprint_meta has no schema_version; not a store this library wrote", s.where)
			}
			if err != nil {
				return fmt.Errorf("postgres: %s: reading the schema version: %w", s.where, err)
			}
			n, err := strconv.Atoi(version)
			if err != nil {
				return fmt.Errorf("postgres: %s: schema_version %q is not a number", s.where, version)
			}
			if n > store.SchemaVersion {
				return &store.SchemaVersionError{Where: "postgres " + s.where, Found: n, Supported: store.SchemaVersion}
			}
			if n < store.SchemaVersion {
				// Schema 1 → 2 adds the chunk table, 2 → 3 the row versions; the rows already
				// there are read as they are.
				upgrade := schemaV3
				if n < 2 {
					upgrade = append(slices.Clone(schemaV2), schemaV3...)
				}
				for _, stmt := range upgrade {
					if _, err := tx.Exec(ctx, stmt); err != nil {
						return fmt.Errorf("postgres: %s: upgrading the schema: %w", s.where, err)
					}
				}
				if _, err := tx.Exec(ctx, `UPDATE agentfootprint_meta SET value = $1 WHERE key = 'schema_version'`,
					strconv.Itoa(store.SchemaVersion)); err != nil {
					return fmt.Errorf("postgres: %s: upgrading the schema: %w", s.where, err)
				}
			}
			return nil
		}
		for _, stmt := range slices.Concat(schemaV1, schemaV2, schemaV3) {
			if _, err := tx.Exec(ctx, stmt); err != nil {
				return fmt.Errorf("postgres: %s: creating the schema: %w", s.where, err)
			}
		}
		if _, err := tx.Exec(ctx, `INSERT INTO agentfootprint_meta (key, value) VALUES ('schema_version', $1)`,
			strconv.Itoa(store.SchemaVersion)); err != nil {
			return fmt.Errorf("postgres: %s: creating the schema: %w", s.where, err)
		}
		return nil
	})
}
