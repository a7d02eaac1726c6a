// Package sqlite is the session.Store of a single host: the conversations, their event logs
// and their leases in two tables (host_conversations, host_events) of the same SQLite file
// as the run store (store/sqlite), written through modernc.org/sqlite.
//
// Leases are compare-and-swap updates of the conversation row, so they hold between
// processes sharing the file too; but SQLite admits one writer at a time, so serving many
// hosts is what session/postgres is for.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentfootprint/agentfootprint-go/host/session"
	runstore "github.com/agentfootprint/agentfootprint-go/store/sqlite"
)

// store is the session.Store in a SQLite file.
type store struct {
	db     *sql.DB
	path   string
	closed atomic.Bool
	// writeMu serialises this process's writers (SQLite's single writer), which is
	// cheaper than its busy handler.
	writeMu sync.Mutex
}

var _ session.Store = (*store)(nil)

const schema = `
CREATE TABLE IF NOT EXISTS host_conversations (
	id          TEXT PRIMARY KEY,
	agent       TEXT NOT NULL,
	checkpoint  BLOB NOT NULL,
	state       TEXT NOT NULL,
	turns       INTEGER NOT NULL DEFAULT 0,
	last_seq    INTEGER NOT NULL DEFAULT 0,
	owner       TEXT NOT NULL DEFAULT '',
	lease_until INTEGER NOT NULL DEFAULT 0,
	run_id      TEXT NOT NULL DEFAULT '',
	created_at  INTEGER NOT NULL,
	updated_at  INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS host_events (
	conversation_id TEXT NOT NULL REFERENCES host_conversations (id) ON DELETE CASCADE,
	seq             INTEGER NOT NULL,
	run_id          TEXT NOT NULL,
	type            TEXT NOT NULL,
	data            BLOB NOT NULL,
	at              INTEGER NOT NULL,
	PRIMARY KEY (conversation_id, seq)
) WITHOUT ROWID;
`

// Open opens the session tables in the SQLite file at path, creating the file, the run
// store's schema (so the file is also a run store, see store/sqlite) and these tables on
// first use. It refuses what store/sqlite.Open refuses. The tables are reached only through the
// session.Store it returns; Close releases the file.
func Open(ctx context.Context, path string) (session.Store, error) {
	rs, err := runstore.Open(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("session/sqlite: %w", err)
	}
	rs.Close()
	dsn := path + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("session/sqlite: opening %s: %w", path, err)
	}
	db.SetMaxOpenConns(4)
	if _, err := db.ExecContext(ctx, schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("session/sqlite: creating the session tables in %s: %w", path, err)
	}
	return &store{db: db, path: path}, nil
}

// Close closes the database; it is safe to call more than once.
func (s *store) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	return s.db.Close()
}

func (s *store) check() error {
	if s.closed.Load() {
		return session.ErrClosed
	}
	return nil
}

func nanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func fromNanos(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

// Create implements session.Store.
func (s *store) Create(ctx context.Context, c *session.Conversation) error {
	if err := s.check(); err != nil {
		return err
	}
	if c == nil || c.ID == "" {
		return errors.New("session/sqlite: the conversation has no id")
	}
	if len(c.Checkpoint) == 0 {
		return fmt.Errorf("session/sqlite: conversation %s: the checkpoint is empty", c.ID)
	}
	now := time.Now().UTC()
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	_, err := s.db.ExecContext(ctx, `INSERT INTO host_conversations (id, agent, checkpoint, state, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?)`, c.ID, c.Agent, []byte(c.Checkpoint), string(session.StateIdle), now.UnixNano(), now.UnixNano())
	if err != nil {
		if strings.Contains(err.Error(), "UNIQUE") || strings.Contains(err.Error(), "PRIMARY KEY") {
			return fmt.Errorf("session/sqlite: conversation %s: %w", c.ID, session.ErrExists)
		}
		return fmt.Errorf("session/sqlite: creating conversation %s: %w", c.ID, err)
	}
	return nil
}

type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func get(ctx context.Context, q querier, id string) (*session.Conversation, error) {
	var c session.Conversation
	var state string
	var cp []byte
	var until, created, updated int64
	err := q.QueryRowContext(ctx, `SELECT id, agent, checkpoint, state, turns, last_seq, owner, lease_until, run_id, created_at, updated_at
		FROM host_conversations WHERE id = ?`, id).
		Scan(&c.ID, &c.Agent, &cp, &state, &c.Turns, &c.LastSeq, &c.Owner, &until, &c.RunID, &created, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("session/sqlite: conversation %q: %w", id, session.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("session/sqlite: reading conversation %q: %w", id, err)
	}
	c.Checkpoint, c.State = cp, session.State(state)
	c.LeaseUntil, c.CreatedAt, c.UpdatedAt = fromNanos(until), fromNanos(created), fromNanos(updated)
	return &c, nil
}

// Get implements session.Store.
func (s *store) Get(ctx context.Context, id string) (*session.Conversation, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	return get(ctx, s.db, id)
}

// Acquire implements session.Store.
func (s *store) Acquire(ctx context.Context, id, owner string, ttl time.Duration) (*session.Lease, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	if owner == "" {
		return nil, errors.New("session/sqlite: Acquire needs an owner")
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	c, err := get(ctx, s.db, id)
	if err != nil {
		return nil, err
	}
	now := time.Now().UTC()
	if c.Owner != "" && now.Before(c.LeaseUntil) {
		return nil, fmt.Errorf("session/sqlite: conversation %q: %w", id, session.ErrBusy)
	}
	until := now.Add(ttl)
	// Compare and swap on the lease as read: another process that took it in between
	// makes this update match nothing.
	r, err := s.db.ExecContext(ctx, `UPDATE host_conversations SET owner = ?, lease_until = ?, run_id = '', updated_at = ?
		WHERE id = ? AND owner = ? AND lease_until = ?`, owner, until.UnixNano(), now.UnixNano(), id, c.Owner, nanos(c.LeaseUntil))
	if err != nil {
		return nil, fmt.Errorf("session/sqlite: taking the lease on %q: %w", id, err)
	}
	if n, _ := r.RowsAffected(); n != 1 {
		return nil, fmt.Errorf("session/sqlite: conversation %q: %w", id, session.ErrBusy)
	}
	l := &session.Lease{Conversation: *c}
	if c.Owner != "" {
		l.Abandoned = &session.Abandoned{Owner: c.Owner, RunID: c.RunID}
	}
	l.Owner, l.LeaseUntil, l.RunID, l.UpdatedAt = owner, until, "", now
	return l, nil
}

// Renew implements session.Store.
func (s *store) Renew(ctx context.Context, id, owner string, ttl time.Duration) error {
	if err := s.check(); err != nil {
		return err
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	r, err := s.db.ExecContext(ctx, `UPDATE host_conversations SET lease_until = ? WHERE id = ? AND owner = ?`,
		time.Now().Add(ttl).UnixNano(), id, owner)
	if err != nil {
		return fmt.Errorf("session/sqlite: renewing the lease on %q: %w", id, err)
	}
	if n, _ := r.RowsAffected(); n != 1 {
		return fmt.Errorf("session/sqlite: conversation %q: %w", id, session.ErrLeaseLost)
	}
	return nil
}

// appendTx adds ev under owner's lease inside tx.
func appendTx(ctx context.Context, tx *sql.Tx, id, owner string, ev session.Event, now time.Time) (int64, error) {
	var seq int64
	err := tx.QueryRowContext(ctx, `UPDATE host_conversations SET last_seq = last_seq + 1,
		run_id = CASE WHEN ? <> '' THEN ? ELSE run_id END, updated_at = ?
		WHERE id = ? AND owner = ? RETURNING last_seq`, ev.RunID, ev.RunID, now.UnixNano(), id, owner).Scan(&seq)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("session/sqlite: conversation %q: %w", id, session.ErrLeaseLost)
	}
	if err != nil {
		return 0, fmt.Errorf("session/sqlite: appending to %q: %w", id, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO host_events (conversation_id, seq, run_id, type, data, at) VALUES (?, ?, ?, ?, ?, ?)`,
		id, seq, ev.RunID, ev.Type, []byte(ev.Data), now.UnixNano()); err != nil {
		return 0, fmt.Errorf("session/sqlite: appending to %q: %w", id, err)
	}
	return seq, nil
}

// Append implements session.Store.
func (s *store) Append(ctx context.Context, id, owner string, ev session.Event) (int64, error) {
	if err := s.check(); err != nil {
		return 0, err
	}
	if ev.Type == "" {
		return 0, errors.New("session/sqlite: the event has no type")
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("session/sqlite: appending to %q: %w", id, err)
	}
	defer tx.Rollback()
	seq, err := appendTx(ctx, tx, id, owner, ev, time.Now().UTC())
	if err != nil {
		return 0, err
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("session/sqlite: appending to %q: %w", id, err)
	}
	return seq, nil
}

// Release implements session.Store.
func (s *store) Release(ctx context.Context, id, owner string, end session.End) (int64, error) {
	if err := s.check(); err != nil {
		return 0, err
	}
	if err := session.CheckEnd(end); err != nil {
		return 0, err
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("session/sqlite: releasing %q: %w", id, err)
	}
	defer tx.Rollback()
	now := time.Now().UTC()
	var seq int64
	if end.Event != nil {
		if seq, err = appendTx(ctx, tx, id, owner, *end.Event, now); err != nil {
			return 0, err
		}
	}
	turn := 0
	if end.Turn {
		turn = 1
	}
	r, err := tx.ExecContext(ctx, `UPDATE host_conversations SET checkpoint = COALESCE(?, checkpoint), state = ?, turns = turns + ?,
		owner = '', lease_until = 0, run_id = '', updated_at = ? WHERE id = ? AND owner = ?`,
		nilIfEmpty(end.Checkpoint), string(end.State), turn, now.UnixNano(), id, owner)
	if err != nil {
		return 0, fmt.Errorf("session/sqlite: releasing %q: %w", id, err)
	}
	if n, _ := r.RowsAffected(); n != 1 {
		return 0, fmt.Errorf("session/sqlite: conversation %q: %w", id, session.ErrLeaseLost)
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("session/sqlite: releasing %q: %w", id, err)
	}
	return seq, nil
}

func nilIfEmpty(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return b
}

// Events implements session.Store.
func (s *store) Events(ctx context.Context, id string, after int64, limit int) ([]session.Event, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	if limit <= 0 {
		limit = 100
	}
	rows, err := s.db.QueryContext(ctx, `SELECT seq, run_id, type, data, at FROM host_events
		WHERE conversation_id = ? AND seq > ? ORDER BY seq LIMIT ?`, id, after, limit)
	if err != nil {
		return nil, fmt.Errorf("session/sqlite: reading the events of %q: %w", id, err)
	}
	defer rows.Close()
	var out []session.Event
	for rows.Next() {
		var e session.Event
		var data []byte
		var at int64
		if err := rows.Scan(&e.Seq, &e.RunID, &e.Type, &data, &at); err != nil {
			return nil, fmt.Errorf("session/sqlite: reading the events of %q: %w", id, err)
		}
		e.Data, e.At = data, fromNanos(at)
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("session/sqlite: reading the events of %q: %w", id, err)
	}
	if len(out) == 0 {
		if _, err := get(ctx, s.db, id); err != nil {
			return nil, err
		}
	}
	return out, nil
}
