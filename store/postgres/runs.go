// This file holds the postgres Store's reads and writes: runs with their blobs in one
// transaction (sent as one batch), listing, blobs and checkpoints.

package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/agentfootprint/agentfootprint-go/store"
	"github.com/jackc/pgx/v5"
)

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

// with runs fn on a pooled connection.
func (s *runStore) with(ctx context.Context, fn func(*pgx.Conn) error) error {
	if err := s.checkOpen(); err != nil {
		return err
	}
	c, err := s.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer c.Release()
	return fn(c.Conn())
}

// PutRun implements store.Store. The run row, its blobs and their links are written in one
// transaction; blobs are inserted in digest order so concurrent writers sharing blobs
// cannot deadlock.
func (s *runStore) PutRun(ctx context.Context, run *store.Run) error {
	if err := s.checkOpen(); err != nil {
		return err
	}
	if err := run.Validate(); err != nil {
		return err
	}
	blobs := slices.Clone(run.Blobs)
	slices.SortFunc(blobs, func(a, b store.Blob) int { return strings.Compare(a.SHA256, b.SHA256) })
	blobs = slices.CompactFunc(blobs, func(a, b store.Blob) bool { return a.SHA256 == b.SHA256 })
	var events []byte
	if len(run.Events) > 0 {
		events = run.Events
	}
	err := s.with(ctx, func(c *pgx.Conn) error {
		return pgx.BeginFunc(ctx, c, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, `INSERT INTO agentfootprint_runs (id, session_id, agent_id, started_at, ended_at, status, answer, record, events)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
				ON CONFLICT (id) DO UPDATE SET session_id = excluded.session_id, agent_id = excluded.agent_id,
					started_at = excluded.started_at, ended_at = excluded.ended_at, status = excluded.status,
					answer = excluded.answer, record = excluded.record, events = excluded.events`,
				run.ID, run.SessionID, run.AgentID, nanos(run.StartedAt), nanos(run.EndedAt), string(run.Status), run.Answer,
				[]byte(run.Record), events); err != nil {
				return err
			}
			if s.midPut != nil && len(blobs) == 0 {
				s.midPut()
			}
			var batch pgx.Batch
			batch.Queue(`DELETE FROM agentfootprint_run_blobs WHERE run_id = $1`, run.ID)
			for i, b := range blobs {
				if i == len(blobs)/2 && s.midPut != nil {
					if err := tx.SendBatch(ctx, &batch).Close(); err != nil {
						return err
					}
					batch = pgx.Batch{}
					s.midPut()
				}
				data := b.Data
				if data == nil {
					data = []byte{}
				}
				batch.Queue(`INSERT INTO agentfootprint_blobs (sha256, size, data) VALUES ($1, $2, $3) ON CONFLICT (sha256) DO NOTHING`,
					b.SHA256, len(data), data)
				batch.Queue(`INSERT INTO agentfootprint_run_blobs (run_id, sha256) VALUES ($1, $2)`, run.ID, b.SHA256)
			}
			return tx.SendBatch(ctx, &batch).Close()
		})
	})
	if err != nil {
		return fmt.Errorf("postgres: storing run %q: %w", run.ID, err)
	}
	return nil
}

// GetRun implements store.Store. The run and its blobs are read in one repeatable-read
// transaction, so a concurrent rewrite is seen whole or not at all.
func (s *runStore) GetRun(ctx context.Context, id string) (*store.Run, error) {
	run := &store.Run{}
	err := s.with(ctx, func(c *pgx.Conn) error {
		return pgx.BeginTxFunc(ctx, c, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
			var started, ended int64
			var status string
			var record, events []byte
			err := tx.QueryRow(ctx, `SELECT id, session_id, agent_id, started_at, ended_at, status, answer, record, events
				FROM agentfootprint_runs WHERE id = $1`, id).
				Scan(&run.ID, &run.SessionID, &run.AgentID, &started, &ended, &status, &run.Answer, &record, &events)
			if errors.Is(err, pgx.ErrNoRows) {
				return &store.NotFoundError{Kind: "run", ID: id}
			}
			if err != nil {
				return err
			}
			run.StartedAt, run.EndedAt, run.Status = fromNanos(started), fromNanos(ended), store.Status(status)
			run.Record = record
			if len(events) > 0 {
				run.Events = events
			}
			rows, err := tx.Query(ctx, `SELECT b.sha256, b.data FROM agentfootprint_run_blobs l
				JOIN agentfootprint_blobs b ON b.sha256 = l.sha256 WHERE l.run_id = $1 ORDER BY b.sha256`, id)
			if err != nil {
				return err
			}
			for rows.Next() {
				var b store.Blob
				if err := rows.Scan(&b.SHA256, &b.Data); err != nil {
					rows.Close()
					return err
				}
				if b.Data == nil {
					b.Data = []byte{}
				}
				run.Blobs = append(run.Blobs, b)
			}
			return rows.Err()
		})
	})
	var nf *store.NotFoundError
	if errors.As(err, &nf) || errors.Is(err, store.ErrClosed) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: reading run %q: %w", id, err)
	}
	return run, nil
}

// ListRuns implements store.Store.
func (s *runStore) ListRuns(ctx context.Context, f store.Filter) ([]store.RunInfo, error) {
	if err := s.checkOpen(); err != nil {
		return nil, err
	}
	if err := f.Validate(); err != nil {
		return nil, err
	}
	var where []string
	var args []any
	add := func(cond string, v any) {
		args = append(args, v)
		where = append(where, fmt.Sprintf(cond, len(args)))
	}
	if f.SessionID != "" {
		add("session_id = $%d", f.SessionID)
	}
	if f.AgentID != "" {
		add("agent_id = $%d", f.AgentID)
	}
	if f.Status != "" {
		add("status = $%d", string(f.Status))
	}
	if !f.Since.IsZero() {
		add("started_at >= $%d", f.Since.UnixNano())
	}
	if !f.Until.IsZero() {
		add("started_at < $%d", f.Until.UnixNano())
	}
	q := `SELECT id, session_id, agent_id, started_at, ended_at, status, answer FROM agentfootprint_runs`
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY started_at DESC, id DESC"
	if f.Limit > 0 {
		args = append(args, f.Limit)
		q += fmt.Sprintf(" LIMIT $%d", len(args))
	}
	var out []store.RunInfo
	err := s.with(ctx, func(c *pgx.Conn) error {
		rows, err := c.Query(ctx, q, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var r store.RunInfo
			var started, ended int64
			var status string
			if err := rows.Scan(&r.ID, &r.SessionID, &r.AgentID, &started, &ended, &status, &r.Answer); err != nil {
				return err
			}
			r.StartedAt, r.EndedAt, r.Status = fromNanos(started), fromNanos(ended), store.Status(status)
			out = append(out, r)
		}
		return rows.Err()
	})
	if errors.Is(err, store.ErrClosed) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: listing runs: %w", err)
	}
	return out, nil
}

// PutBlob implements store.Store.
func (s *runStore) PutBlob(ctx context.Context, data []byte) (string, error) {
	d := store.Digest(data)
	if data == nil {
		data = []byte{}
	}
	err := s.with(ctx, func(c *pgx.Conn) error {
		_, err := c.Exec(ctx, `INSERT INTO agentfootprint_blobs (sha256, size, data) VALUES ($1, $2, $3) ON CONFLICT (sha256) DO NOTHING`,
			d, len(data), data)
		return err
	})
	if errors.Is(err, store.ErrClosed) {
		return "", err
	}
	if err != nil {
		return "", fmt.Errorf("postgres: storing blob %s: %w", d, err)
	}
	return d, nil
}

// GetBlob implements store.Store.
func (s *runStore) GetBlob(ctx context.Context, digest string) ([]byte, error) {
	if err := s.checkOpen(); err != nil {
		return nil, err
	}
	d, err := store.NormalizeDigest(digest)
	if err != nil {
		return nil, err
	}
	var data []byte
	err = s.with(ctx, func(c *pgx.Conn) error {
		return c.QueryRow(ctx, `SELECT data FROM agentfootprint_blobs WHERE sha256 = $1`, d).Scan(&data)
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, &store.NotFoundError{Kind: "blob", ID: d}
	}
	if errors.Is(err, store.ErrClosed) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: reading blob %s: %w", d, err)
	}
	if data == nil {
		data = []byte{}
	}
	return data, nil
}

// PutCheckpoint implements store.Store. It sets cp.UpdatedAt to the time of the write.
func (s *runStore) PutCheckpoint(ctx context.Context, cp *store.Checkpoint) error {
	if err := s.checkOpen(); err != nil {
		return err
	}
	if err := cp.Validate(); err != nil {
		return err
	}
	now := time.Now().UTC()
	err := s.with(ctx, func(c *pgx.Conn) error {
		_, err := c.Exec(ctx, `INSERT INTO agentfootprint_checkpoints (session_id, run_id, data, updated_at) VALUES ($1, $2, $3, $4)
			ON CONFLICT (session_id) DO UPDATE SET run_id = excluded.run_id, data = excluded.data, updated_at = excluded.updated_at`,
			cp.SessionID, cp.RunID, []byte(cp.Data), now.UnixNano())
		return err
	})
	if errors.Is(err, store.ErrClosed) {
		return err
	}
	if err != nil {
		return fmt.Errorf("postgres: storing the checkpoint of session %q: %w", cp.SessionID, err)
	}
	cp.UpdatedAt = now
	return nil
}

// GetCheckpoint implements store.Store.
func (s *runStore) GetCheckpoint(ctx context.Context, sessionID string) (*store.Checkpoint, error) {
	cp := &store.Checkpoint{}
	var data []byte
	var updated int64
	err := s.with(ctx, func(c *pgx.Conn) error {
		return c.QueryRow(ctx, `SELECT session_id, run_id, data, updated_at FROM agentfootprint_checkpoints WHERE session_id = $1`,
			sessionID).Scan(&cp.SessionID, &cp.RunID, &data, &updated)
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, &store.NotFoundError{Kind: "checkpoint", ID: sessionID}
	}
	if errors.Is(err, store.ErrClosed) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: reading the checkpoint of session %q: %w", sessionID, err)
	}
	cp.Data, cp.UpdatedAt = data, fromNanos(updated)
	return cp, nil
}
