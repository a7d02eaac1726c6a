// This file holds the postgres Store's reads and writes: runs with their blobs in one
// transaction (sent as one batch), listing, blobs and checkpoints. A run's record, events
// and blobs are written in the stored encoding of internal/backend/stored (chunks shared by
// content, compressed) and rebuilt byte for byte on reading; rows written before schema 2
// read as they are.

package postgres

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/agentfootprint/agentfootprint-go/internal/backend/stored"
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
	// The first attempt encodes before the write transaction; when another write of the
	// same run came first, the run is encoded again inside the transaction, under a lock on
	// its id that every such retry takes (a first attempt can still overtake it, hence a few
	// attempts).
	for attempt := 0; ; attempt++ {
		err := s.putRun(ctx, run, attempt > 0)
		if !errors.Is(err, errVersionMoved) || attempt == 4 {
			if err != nil {
				return fmt.Errorf("postgres: storing run %q: %w", run.ID, err)
			}
			return nil
		}
	}
}

// errVersionMoved is a run row written by another writer between encoding a run and writing
// it: the run is encoded again against the row's new version.
var errVersionMoved = errors.New("the run row was written meanwhile")

func (s *runStore) putRun(ctx context.Context, run *store.Run, locked bool) error {
	// What the encoder asks (which chunks the store holds, the agent's dictionary, the
	// conversation's previous run) is read before the write transaction on a first attempt:
	// chunk rows are never deleted, so the answers stay true. A retry asks within the
	// transaction, so that it holds one connection only.
	var w *stored.Run
	encode := func(h holder) error {
		enc, _ := s.encoders.Get().(*stored.Encoder)
		if enc == nil {
			enc = new(stored.Encoder)
		}
		var err error
		w, err = enc.EncodeRun(run, s.mode, h)
		s.encoders.Put(enc)
		return err
	}
	if !locked {
		if err := encode(holder{s: s, ctx: ctx}); err != nil {
			return err
		}
	}
	type blobRow struct {
		digest string
		size   int
		data   []byte
	}
	err := s.with(ctx, func(c *pgx.Conn) error {
		return pgx.BeginFunc(ctx, c, func(tx pgx.Tx) error {
			if locked {
				if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext($1))`, "agentfootprint_run:"+run.ID); err != nil {
					return err
				}
				if err := encode(holder{s: s, ctx: ctx, q: tx}); err != nil {
					return err
				}
			}
			blobs := make([]blobRow, len(run.Blobs))
			for i, b := range run.Blobs {
				blobs[i] = blobRow{b.SHA256, len(b.Data), w.Blobs[i]}
			}
			slices.SortFunc(blobs, func(a, b blobRow) int { return strings.Compare(a.digest, b.digest) })
			blobs = slices.CompactFunc(blobs, func(a, b blobRow) bool { return a.digest == b.digest })
			// Chunks go in key order, like blobs in digest order, so that concurrent writers
			// sharing them cannot deadlock.
			chunks := slices.Clone(w.Chunks)
			slices.SortFunc(chunks, func(a, b stored.Chunk) int { return bytes.Compare(a.Key[:], b.Key[:]) })
			events := w.Events
			var pre pgx.Batch
			for _, ch := range chunks {
				pre.Queue(`INSERT INTO agentfootprint_chunks (sha256, data) VALUES ($1, $2) ON CONFLICT (sha256) DO NOTHING`, ch.Key[:], ch.Data)
			}
			if w.NewDict != nil {
				pre.Queue(`INSERT INTO agentfootprint_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING`,
					dictMetaKey(run.AgentID), hex.EncodeToString(w.NewDict[:]))
			}
			if pre.Len() > 0 {
				if err := tx.SendBatch(ctx, &pre).Close(); err != nil {
					return err
				}
			}
			// A row written again keeps its earlier version: the runs after it may be
			// deltas on it. The row is written only at the version it was encoded for.
			// A row of the schema 1 layout lists its blobs in link rows, which this write
			// replaces: the kept version gets them as a list.
			var links []string
			if err := tx.QueryRow(ctx, `SELECT coalesce(array_agg(l.sha256), '{}') FROM agentfootprint_runs r
				JOIN agentfootprint_run_blobs l ON l.run_id = r.id WHERE r.id = $1 AND r.blob_list IS NULL`, run.ID).Scan(&links); err != nil {
				return err
			}
			var list []byte
			if len(links) > 0 {
				var err error
				if list, err = stored.BlobList(links); err != nil {
					return err
				}
			}
			if _, err := tx.Exec(ctx, `INSERT INTO agentfootprint_run_versions (id, version, record, events, blob_list)
				SELECT id, version, record, events, coalesce(blob_list, $2) FROM agentfootprint_runs WHERE id = $1
				ON CONFLICT DO NOTHING`, run.ID, list); err != nil {
				return err
			}
			tag, err := tx.Exec(ctx, `INSERT INTO agentfootprint_runs (id, session_id, agent_id, started_at, ended_at, status, answer, record, events, blob_list, version)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
				ON CONFLICT (id) DO UPDATE SET session_id = excluded.session_id, agent_id = excluded.agent_id,
					started_at = excluded.started_at, ended_at = excluded.ended_at, status = excluded.status,
					answer = excluded.answer, record = excluded.record, events = excluded.events, blob_list = excluded.blob_list,
					version = excluded.version
				WHERE agentfootprint_runs.version + 1 = excluded.version`,
				run.ID, run.SessionID, run.AgentID, nanos(run.StartedAt), nanos(run.EndedAt), string(run.Status), run.Answer,
				w.Record, events, w.BlobList, int64(w.Version))
			if err != nil {
				return err
			}
			if tag.RowsAffected() != 1 {
				return errVersionMoved
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
				if err := s.queueBlob(&batch, b.digest, b.size, b.data); err != nil {
					return err
				}
				if w.BlobList == nil { // else the run row lists its blobs
					batch.Queue(`INSERT INTO agentfootprint_run_blobs (run_id, sha256) VALUES ($1, $2)`, run.ID, b.digest)
				}
			}
			batch.Queue(`INSERT INTO agentfootprint_meta (key, value) VALUES ($1, $2)
				ON CONFLICT (key) DO UPDATE SET value = excluded.value`, stored.PreviousKey(run), run.ID)
			return tx.SendBatch(ctx, &batch).Close()
		})
	})
	if err != nil {
		return err
	}
	s.views.Put(w.Written)
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
			var record, events, blobList []byte
			var version int64
			err := tx.QueryRow(ctx, `SELECT id, session_id, agent_id, started_at, ended_at, status, answer, record, events, blob_list, version
				FROM agentfootprint_runs WHERE id = $1`, id).
				Scan(&run.ID, &run.SessionID, &run.AgentID, &started, &ended, &status, &run.Answer, &record, &events, &blobList, &version)
			if errors.Is(err, pgx.ErrNoRows) {
				return &store.NotFoundError{Kind: "run", ID: id}
			}
			if err != nil {
				return err
			}
			run.StartedAt, run.EndedAt, run.Status = fromNanos(started), fromNanos(ended), store.Status(status)
			row := &stored.StoredRun{Record: record, Events: events}
			if row.Blobs, err = runBlobs(ctx, tx, id, blobList); err != nil {
				return err
			}
			if err := stored.NewReader(source{ctx: ctx, q: tx}, &s.views).Run(stored.Ref{ID: id, Version: uint64(version)}, row); err != nil {
				return err
			}
			run.Record, run.Blobs = row.Record, row.Blobs
			if len(row.Events) > 0 {
				run.Events = row.Events
			}
			return nil
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

// queueBlob queues the write of the blob row of digest (lowercase hex) holding data (the
// blob's bytes or their form) unless the store holds it: since schema 3 in
// agentfootprint_blob_data, under the binary digest; in the layout of schema 1 (tests) in
// agentfootprint_blobs, under the hex one.
func (s *runStore) queueBlob(b *pgx.Batch, digest string, size int, data []byte) error {
	if s.mode == stored.Whole {
		b.Queue(`INSERT INTO agentfootprint_blobs (sha256, size, data) VALUES ($1, $2, $3) ON CONFLICT (sha256) DO NOTHING`,
			digest, size, data)
		return nil
	}
	k, err := stored.ParseKey(digest)
	if err != nil {
		return err
	}
	b.Queue(`INSERT INTO agentfootprint_blob_data (sha256, data) SELECT $1, $2
		WHERE NOT EXISTS (SELECT 1 FROM agentfootprint_blobs WHERE sha256 = $3) ON CONFLICT (sha256) DO NOTHING`, k[:], data, digest)
	return nil
}

// PutBlob implements store.Store.
func (s *runStore) PutBlob(ctx context.Context, data []byte) (string, error) {
	d := store.Digest(data)
	if data == nil {
		data = []byte{}
	}
	err := s.with(ctx, func(c *pgx.Conn) error {
		var b pgx.Batch
		if err := s.queueBlob(&b, d, len(data), data); err != nil {
			return err
		}
		return c.SendBatch(ctx, &b).Close()
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
		k, err := stored.ParseKey(d)
		if err != nil {
			return err
		}
		return c.QueryRow(ctx, `SELECT data FROM agentfootprint_blob_data WHERE sha256 = $1
			UNION ALL SELECT data FROM agentfootprint_blobs WHERE sha256 = $2 LIMIT 1`, k[:], d).Scan(&data)
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
	if stored.BlobIsForm(d, data) {
		err := s.with(ctx, func(c *pgx.Conn) error {
			var err error
			data, err = stored.NewReader(source{ctx: ctx, q: c}, &s.views).Blob(d, data)
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("postgres: reading blob %s: %w", d, err)
		}
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

// dictMetaKey is the agentfootprint_meta key under which the dictionary chunk of an agent's
// runs is recorded (its hex key).
func dictMetaKey(agentID string) string { return "dict:" + agentID }

// querier is what the reads need of a connection or a transaction.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Base implements stored.Holder: the last run written in run's conversation, and the
// version run's row will have.
func (h holder) Base(run *store.Run) (*stored.Base, uint64, error) {
	var base *stored.Base
	next := uint64(0)
	err := h.use(func(c querier) error {
		own, ok, err := rowVersion(h.ctx, c, run.ID)
		if err != nil {
			return err
		}
		if ok {
			next = own + 1
		}
		var id string
		err = c.QueryRow(h.ctx, `SELECT value FROM agentfootprint_meta WHERE key = $1`, stored.PreviousKey(run)).Scan(&id)
		if errors.Is(err, pgx.ErrNoRows) || err == nil && id == run.ID {
			return nil
		}
		if err != nil {
			return err
		}
		v, ok, err := rowVersion(h.ctx, c, id)
		if err != nil || !ok {
			return err
		}
		base, err = stored.FindBase(source{ctx: h.ctx, q: c}, stored.Ref{ID: id, Version: v}, &h.s.views)
		return err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("finding the previous run: %w", err)
	}
	return base, next, nil
}

// rowVersion returns the version of run id's row; ok is false when there is none.
func rowVersion(ctx context.Context, q querier, id string) (uint64, bool, error) {
	var v int64
	err := q.QueryRow(ctx, `SELECT version FROM agentfootprint_runs WHERE id = $1`, id).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	return uint64(v), true, nil
}

// source reads the rows that delta forms name, for stored.Reader.
type source struct {
	ctx context.Context
	q   querier
}

func (src source) Run(ref stored.Ref) (*stored.StoredRun, bool, error) {
	var record, events, blobList []byte
	var version int64
	err := src.q.QueryRow(src.ctx, `SELECT record, events, blob_list, version FROM agentfootprint_runs WHERE id = $1`, ref.ID).
		Scan(&record, &events, &blobList, &version)
	if err == nil && uint64(version) != ref.Version {
		err = src.q.QueryRow(src.ctx, `SELECT record, events, blob_list FROM agentfootprint_run_versions WHERE id = $1 AND version = $2`,
			ref.ID, int64(ref.Version)).Scan(&record, &events, &blobList)
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("reading run %q version %d: %w", ref.ID, ref.Version, err)
	}
	blobs, err := runBlobs(src.ctx, src.q, ref.ID, blobList)
	if err != nil {
		return nil, false, fmt.Errorf("reading the blobs of run %q: %w", ref.ID, err)
	}
	return &stored.StoredRun{Record: record, Events: events, Blobs: blobs}, true, nil
}

func (src source) Chunks(keys []stored.Key) (map[stored.Key][]byte, error) {
	return readChunks(src.ctx, src.q, keys)
}

// readChunks returns the row data of the chunks under keys; keys not found are left out.
func readChunks(ctx context.Context, q querier, keys []stored.Key) (map[stored.Key][]byte, error) {
	args := make([][]byte, len(keys))
	for i := range keys {
		args[i] = keys[i][:]
	}
	rows, err := q.Query(ctx, `SELECT sha256, data FROM agentfootprint_chunks WHERE sha256 = ANY($1)`, args)
	if err != nil {
		return nil, fmt.Errorf("reading chunks: %w", err)
	}
	defer rows.Close()
	out := make(map[stored.Key][]byte, len(keys))
	for rows.Next() {
		var k, data []byte
		if err := rows.Scan(&k, &data); err != nil {
			return nil, fmt.Errorf("reading chunks: %w", err)
		}
		if len(k) == len(stored.Key{}) {
			out[stored.Key(k)] = data
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading chunks: %w", err)
	}
	return out, nil
}

// holder answers the encoder's questions from the store: through q when it is set (the
// write transaction), else on a pooled connection.
type holder struct {
	s   *runStore
	ctx context.Context
	q   querier
}

// use runs fn on the holder's querier.
func (h holder) use(fn func(q querier) error) error {
	if h.q != nil {
		return fn(h.q)
	}
	return h.s.with(h.ctx, func(c *pgx.Conn) error { return fn(c) })
}

func (h holder) Held(keys []stored.Key) (map[stored.Key]bool, error) {
	args := make([][]byte, len(keys))
	for i := range keys {
		args[i] = keys[i][:]
	}
	held := make(map[stored.Key]bool, len(keys))
	err := h.use(func(c querier) error {
		rows, err := c.Query(h.ctx, `SELECT sha256 FROM agentfootprint_chunks WHERE sha256 = ANY($1)`, args)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var k []byte
			if err := rows.Scan(&k); err != nil {
				return err
			}
			if len(k) == len(stored.Key{}) {
				held[stored.Key(k)] = true
			}
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("looking up chunks: %w", err)
	}
	return held, nil
}

func (h holder) Dict(agentID string) (stored.Key, []byte, bool, error) {
	var k stored.Key
	var d []byte
	found := false
	err := h.use(func(c querier) error {
		var hexKey string
		err := c.QueryRow(h.ctx, `SELECT value FROM agentfootprint_meta WHERE key = $1`, dictMetaKey(agentID)).Scan(&hexKey)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		if k, err = stored.ParseKey(hexKey); err != nil {
			return err
		}
		rows, err := readChunks(h.ctx, c, []stored.Key{k})
		if err != nil {
			return err
		}
		if d, err = stored.UnpackDict(k, rows[k]); err != nil {
			return err
		}
		found = true
		return nil
	})
	if err != nil {
		return stored.Key{}, nil, false, fmt.Errorf("reading the dictionary of agent %q: %w", agentID, err)
	}
	return k, d, found, nil
}

func (h holder) Previous(run *store.Run) ([][]byte, error) {
	var out [][]byte
	err := h.use(func(c querier) error {
		var id string
		err := c.QueryRow(h.ctx, `SELECT value FROM agentfootprint_meta WHERE key = $1`, stored.PreviousKey(run)).Scan(&id)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		var record, events, blobList []byte
		err = c.QueryRow(h.ctx, `SELECT record, events, blob_list FROM agentfootprint_runs WHERE id = $1`, id).Scan(&record, &events, &blobList)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		out = [][]byte{record, events}
		blobs, err := runBlobs(h.ctx, c, id, blobList)
		if err != nil {
			return err
		}
		for _, b := range blobs {
			if stored.BlobIsForm(b.SHA256, b.Data) {
				out = append(out, b.Data)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("finding the previous run: %w", err)
	}
	return out, nil
}

// runBlobs returns the blob rows of run id as stored (forms not rebuilt), sorted by digest:
// those its row lists (list, since schema 2) or, for a row written before (nil list), those
// its links name. A listed blob that is missing is an error.
func runBlobs(ctx context.Context, q querier, id string, list []byte) ([]store.Blob, error) {
	var rows pgx.Rows
	var err error
	want := -1
	if list == nil {
		rows, err = q.Query(ctx, `SELECT b.sha256, b.data FROM agentfootprint_run_blobs l
			JOIN agentfootprint_blobs b ON b.sha256 = l.sha256 WHERE l.run_id = $1 ORDER BY b.sha256`, id)
	} else {
		digests, perr := stored.ParseBlobList(list)
		if perr != nil {
			return nil, perr
		}
		want = len(digests)
		keys := make([][]byte, len(digests))
		for i, d := range digests {
			k, err := stored.ParseKey(d)
			if err != nil {
				return nil, err
			}
			keys[i] = k[:]
		}
		// Rows written since schema 3 are in agentfootprint_blob_data under binary digests;
		// earlier ones in agentfootprint_blobs.
		rows, err = q.Query(ctx, `SELECT encode(sha256, 'hex'), data FROM agentfootprint_blob_data WHERE sha256 = ANY($1)
			UNION ALL SELECT sha256, data FROM agentfootprint_blobs WHERE sha256 = ANY($2) ORDER BY 1`, keys, digests)
	}
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.Blob
	for rows.Next() {
		var b store.Blob
		if err := rows.Scan(&b.SHA256, &b.Data); err != nil {
			return nil, err
		}
		if b.Data == nil {
			b.Data = []byte{}
		}
		if n := len(out); n > 0 && out[n-1].SHA256 == b.SHA256 {
			continue // in both tables: the same bytes
		}
		out = append(out, b)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if want >= 0 && len(out) != want {
		return nil, fmt.Errorf("%d of the %d blobs the run lists are missing", want-len(out), want)
	}
	return out, nil
}
