// Package postgres is the session.Store for several hosts on one PostgreSQL database: the
// conversations, their event logs and their leases in two tables
// (agentfootprint_host_conversations, agentfootprint_host_events) next to the run store's
// (store/postgres), through github.com/jackc/pgx/v5.
//
// A lease is taken under SELECT … FOR UPDATE of the conversation row and its expiry is
// read against the database server's clock, so hosts whose clocks disagree still agree on
// when a lease has run out.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/agentfootprint/agentfootprint-go/host/session"
	runstore "github.com/agentfootprint/agentfootprint-go/store/postgres"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// maxConns bounds the connections one Store opens.
const maxConns = 8

// store is the session.Store in PostgreSQL.
type store struct {
	pool   *pgxpool.Pool
	closed atomic.Bool
}

var _ session.Store = (*store)(nil)

const schema = `
CREATE TABLE IF NOT EXISTS agentfootprint_host_conversations (
	id          text PRIMARY KEY,
	agent       text NOT NULL,
	checkpoint  bytea NOT NULL,
	state       text NOT NULL,
	turns       integer NOT NULL DEFAULT 0,
	last_seq    bigint NOT NULL DEFAULT 0,
	owner       text NOT NULL DEFAULT '',
	lease_until timestamptz,
	run_id      text NOT NULL DEFAULT '',
	created_at  timestamptz NOT NULL,
	updated_at  timestamptz NOT NULL
);
CREATE TABLE IF NOT EXISTS agentfootprint_host_events (
	conversation_id text NOT NULL REFERENCES agentfootprint_host_conversations (id) ON DELETE CASCADE,
	seq             bigint NOT NULL,
	run_id          text NOT NULL,
	type            text NOT NULL,
	data            bytea NOT NULL,
	at              timestamptz NOT NULL,
	PRIMARY KEY (conversation_id, seq)
);
`

// schemaLock is the advisory lock key under which hosts starting together create the
// tables one at a time.
const schemaLock = 0x6166686f7374 // "afhost"

// Open connects to the database dsn names (as store/postgres.Open reads it), creating the
// run store's schema and these tables on first use. It refuses what store/postgres.Open
// refuses. The tables are reached only through the session.Store it returns; Close
// releases the connections.
func Open(ctx context.Context, dsn string) (session.Store, error) {
	rs, err := runstore.Open(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("session/postgres: %w", err)
	}
	rs.Close()
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("session/postgres: reading the connection string: %w", err)
	}
	cfg.MaxConns = maxConns
	p, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("session/postgres: %w", err)
	}
	err = pgx.BeginFunc(ctx, p, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(schemaLock)); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, schema)
		return err
	})
	if err != nil {
		p.Close()
		return nil, fmt.Errorf("session/postgres: creating the session tables: %w", err)
	}
	return &store{pool: p}, nil
}

// Close closes every connection; it is safe to call more than once.
func (s *store) Close() error {
	if !s.closed.Swap(true) {
		s.pool.Close()
	}
	return nil
}

func (s *store) check() error {
	if s.closed.Load() {
		return session.ErrClosed
	}
	return nil
}

// Create implements session.Store.
func (s *store) Create(ctx context.Context, c *session.Conversation) error {
	if err := s.check(); err != nil {
		return err
	}
	if c == nil || c.ID == "" {
		return errors.New("session/postgres: the conversation has no id")
	}
	if len(c.Checkpoint) == 0 {
		return fmt.Errorf("session/postgres: conversation %s: the checkpoint is empty", c.ID)
	}
	_, err := s.pool.Exec(ctx, `INSERT INTO agentfootprint_host_conversations (id, agent, checkpoint, state, created_at, updated_at)
		VALUES ($1, $2, $3, $4, clock_timestamp(), clock_timestamp())`, c.ID, c.Agent, []byte(c.Checkpoint), string(session.StateIdle))
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "23505" {
		return fmt.Errorf("session/postgres: conversation %s: %w", c.ID, session.ErrExists)
	}
	if err != nil {
		return fmt.Errorf("session/postgres: creating conversation %s: %w", c.ID, err)
	}
	return nil
}

const selectConv = `SELECT id, agent, checkpoint, state, turns, last_seq, owner, lease_until, run_id, created_at, updated_at,
	(owner <> '' AND lease_until > clock_timestamp()) FROM agentfootprint_host_conversations WHERE id = $1`

func get(ctx context.Context, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}, id, suffix string) (*session.Conversation, bool, error) {
	var c session.Conversation
	var state string
	var until *time.Time
	var live bool
	err := q.QueryRow(ctx, selectConv+suffix, id).
		Scan(&c.ID, &c.Agent, &c.Checkpoint, &state, &c.Turns, &c.LastSeq, &c.Owner, &until, &c.RunID, &c.CreatedAt, &c.UpdatedAt, &live)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, fmt.Errorf("session/postgres: conversation %q: %w", id, session.ErrNotFound)
	}
	if err != nil {
		return nil, false, fmt.Errorf("session/postgres: reading conversation %q: %w", id, err)
	}
	c.State = session.State(state)
	if until != nil {
		c.LeaseUntil = until.UTC()
	}
	c.CreatedAt, c.UpdatedAt = c.CreatedAt.UTC(), c.UpdatedAt.UTC()
	return &c, live, nil
}

// Get implements session.Store.
func (s *store) Get(ctx context.Context, id string) (*session.Conversation, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	c, _, err := get(ctx, s.pool, id, "")
	return c, err
}

func interval(ttl time.Duration) float64 { return ttl.Seconds() }

// Acquire implements session.Store.
func (s *store) Acquire(ctx context.Context, id, owner string, ttl time.Duration) (*session.Lease, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	if owner == "" {
		return nil, errors.New("session/postgres: Acquire needs an owner")
	}
	var l *session.Lease
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		c, live, err := get(ctx, tx, id, " FOR UPDATE")
		if err != nil {
			return err
		}
		if live {
			return fmt.Errorf("session/postgres: conversation %q: %w", id, session.ErrBusy)
		}
		l = &session.Lease{Conversation: *c}
		if c.Owner != "" {
			l.Abandoned = &session.Abandoned{Owner: c.Owner, RunID: c.RunID}
		}
		return tx.QueryRow(ctx, `UPDATE agentfootprint_host_conversations
			SET owner = $2, lease_until = clock_timestamp() + make_interval(secs => $3), run_id = '', updated_at = clock_timestamp()
			WHERE id = $1 RETURNING lease_until, updated_at`, id, owner, interval(ttl)).Scan(&l.LeaseUntil, &l.UpdatedAt)
	})
	if err != nil {
		if errors.Is(err, session.ErrBusy) || errors.Is(err, session.ErrNotFound) {
			return nil, err
		}
		return nil, fmt.Errorf("session/postgres: taking the lease on %q: %w", id, err)
	}
	l.Owner, l.RunID = owner, ""
	l.LeaseUntil, l.UpdatedAt = l.LeaseUntil.UTC(), l.UpdatedAt.UTC()
	return l, nil
}

// Renew implements session.Store.
func (s *store) Renew(ctx context.Context, id, owner string, ttl time.Duration) error {
	if err := s.check(); err != nil {
		return err
	}
	tag, err := s.pool.Exec(ctx, `UPDATE agentfootprint_host_conversations SET lease_until = clock_timestamp() + make_interval(secs => $3)
		WHERE id = $1 AND owner = $2`, id, owner, interval(ttl))
	if err != nil {
		return fmt.Errorf("session/postgres: renewing the lease on %q: %w", id, err)
	}
	if tag.RowsAffected() != 1 {
		return fmt.Errorf("session/postgres: conversation %q: %w", id, session.ErrLeaseLost)
	}
	return nil
}

func appendTx(ctx context.Context, tx pgx.Tx, id, owner string, ev session.Event) (int64, error) {
	var seq int64
	err := tx.QueryRow(ctx, `UPDATE agentfootprint_host_conversations SET last_seq = last_seq + 1,
		run_id = CASE WHEN $3 <> '' THEN $3 ELSE run_id END, updated_at = clock_timestamp()
		WHERE id = $1 AND owner = $2 RETURNING last_seq`, id, owner, ev.RunID).Scan(&seq)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, fmt.Errorf("session/postgres: conversation %q: %w", id, session.ErrLeaseLost)
	}
	if err != nil {
		return 0, fmt.Errorf("session/postgres: appending to %q: %w", id, err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO agentfootprint_host_events (conversation_id, seq, run_id, type, data, at)
		VALUES ($1, $2, $3, $4, $5, clock_timestamp())`, id, seq, ev.RunID, ev.Type, []byte(ev.Data)); err != nil {
		return 0, fmt.Errorf("session/postgres: appending to %q: %w", id, err)
	}
	return seq, nil
}

// Append implements session.Store.
func (s *store) Append(ctx context.Context, id, owner string, ev session.Event) (int64, error) {
	if err := s.check(); err != nil {
		return 0, err
	}
	if ev.Type == "" {
		return 0, errors.New("session/postgres: the event has no type")
	}
	var seq int64
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var err error
		seq, err = appendTx(ctx, tx, id, owner, ev)
		return err
	})
	return seq, err
}

// Release implements session.Store.
func (s *store) Release(ctx context.Context, id, owner string, end session.End) (int64, error) {
	if err := s.check(); err != nil {
		return 0, err
	}
	if err := session.CheckEnd(end); err != nil {
		return 0, err
	}
	var seq int64
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if end.Event != nil {
			var err error
			if seq, err = appendTx(ctx, tx, id, owner, *end.Event); err != nil {
				return err
			}
		}
		turn := 0
		if end.Turn {
			turn = 1
		}
		var cp []byte
		if len(end.Checkpoint) > 0 {
			cp = end.Checkpoint
		}
		tag, err := tx.Exec(ctx, `UPDATE agentfootprint_host_conversations SET checkpoint = COALESCE($3, checkpoint), state = $4,
			turns = turns + $5, owner = '', lease_until = NULL, run_id = '', updated_at = clock_timestamp()
			WHERE id = $1 AND owner = $2`, id, owner, cp, string(end.State), turn)
		if err != nil {
			return fmt.Errorf("session/postgres: releasing %q: %w", id, err)
		}
		if tag.RowsAffected() != 1 {
			return fmt.Errorf("session/postgres: conversation %q: %w", id, session.ErrLeaseLost)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return seq, nil
}

// Events implements session.Store.
func (s *store) Events(ctx context.Context, id string, after int64, limit int) ([]session.Event, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	if limit <= 0 {
		limit = 100
	}
	rows, err := s.pool.Query(ctx, `SELECT seq, run_id, type, data, at FROM agentfootprint_host_events
		WHERE conversation_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`, id, after, limit)
	if err != nil {
		return nil, fmt.Errorf("session/postgres: reading the events of %q: %w", id, err)
	}
	var out []session.Event
	for rows.Next() {
		var e session.Event
		if err := rows.Scan(&e.Seq, &e.RunID, &e.Type, &e.Data, &e.At); err != nil {
			rows.Close()
			return nil, fmt.Errorf("session/postgres: reading the events of %q: %w", id, err)
		}
		e.At = e.At.UTC()
		out = append(out, e)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("session/postgres: reading the events of %q: %w", id, err)
	}
	if len(out) == 0 {
		if _, _, err := get(ctx, s.pool, id, ""); err != nil {
			return nil, err
		}
	}
	return out, nil
}
