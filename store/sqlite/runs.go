// This file holds the sqlite Store's reads and writes: runs with their blobs in one
// transaction, listing, blobs and checkpoints. A run's record, events and blobs are written
// in the stored encoding of internal/backend/stored (chunks shared by content, compressed)
// and rebuilt byte for byte on reading; rows written before schema 2 read as they are.

package sqlite

import (
	"context"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/agentfootprint/agentfootprint-go/internal/backend/stored"
	"github.com/agentfootprint/agentfootprint-go/store"
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

// PutRun implements store.Store. The run row, the blobs and the links between them are
// written in one transaction; a crash or a cancelled ctx before COMMIT leaves no trace.
func (s *runStore) PutRun(ctx context.Context, run *store.Run) error {
	if err := s.checkOpen(); err != nil {
		return err
	}
	if err := run.Validate(); err != nil {
		return err
	}
	// Encoding is CPU work: it is done before taking the write lock. What it asks the
	// store (which chunks it holds, the agent's dictionary) is read outside the write
	// transaction: chunk rows are never deleted, so the answers stay true. The row's
	// version is checked inside it: when another write of the same run came first, the run
	// is encoded again, this time under the lock, which no writer of this process can
	// overtake (another process can, hence a few attempts).
	for attempt := 0; ; attempt++ {
		err := s.putRun(ctx, run, attempt > 0)
		if !errors.Is(err, errVersionMoved) || attempt == 4 {
			return err
		}
	}
}

// keepLinks writes the blob list of the kept version of run id (a row of the schema 1
// layout) from its link rows.
func keepLinks(ctx context.Context, tx *sql.Tx, id string, version int64) error {
	rows, err := tx.QueryContext(ctx, `SELECT sha256 FROM run_blobs WHERE run_id = ?`, id)
	if err != nil {
		return err
	}
	var digests []string
	for rows.Next() {
		var d string
		if err := rows.Scan(&d); err != nil {
			rows.Close()
			return err
		}
		digests = append(digests, d)
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		return err
	}
	list, err := stored.BlobList(digests)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `UPDATE run_versions SET blob_list = ? WHERE id = ? AND version = ? AND blob_list IS NULL`, list, id, version)
	return err
}

// errVersionMoved is a run row written by another writer between encoding a run and writing
// it: the run is encoded again against the row's new version.
var errVersionMoved = errors.New("the run row was written meanwhile")

func (s *runStore) putRun(ctx context.Context, run *store.Run, locked bool) error {
	if locked {
		s.writeMu.Lock()
		defer s.writeMu.Unlock()
	}
	enc, _ := s.encoders.Get().(*stored.Encoder)
	if enc == nil {
		enc = new(stored.Encoder)
	}
	rows, err := enc.EncodeRun(run, s.mode, holder{s: s, ctx: ctx})
	s.encoders.Put(enc)
	if err != nil {
		return fmt.Errorf("sqlite: storing run %q: %w", run.ID, err)
	}
	var events any
	if rows.Events != nil {
		events = rows.Events
	}
	if !locked {
		s.writeMu.Lock()
		defer s.writeMu.Unlock()
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: storing run %q: %w", run.ID, err)
	}
	defer tx.Rollback()
	// The first statement writes, so the deferred transaction takes the write lock at once
	// (waiting out busy_timeout) instead of failing on a read-to-write upgrade.
	var blobList any
	if rows.BlobList != nil {
		blobList = rows.BlobList
	}
	// A row written again keeps its earlier version: the runs after it may be deltas on it.
	// The copy is the first statement, so it takes the write lock.
	if _, err := tx.ExecContext(ctx, `INSERT INTO run_versions (id, version, record, events, blob_list)
		SELECT id, version, record, events, blob_list FROM runs WHERE id = ? ON CONFLICT DO NOTHING`, run.ID); err != nil {
		return fmt.Errorf("sqlite: storing run %q: %w", run.ID, err)
	}
	var cur int64 = -1
	var linked bool
	if err := tx.QueryRowContext(ctx, `SELECT version, blob_list IS NULL FROM runs WHERE id = ?`, run.ID).Scan(&cur, &linked); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("sqlite: storing run %q: %w", run.ID, err)
	}
	if linked {
		// A row of the schema 1 layout lists its blobs in link rows, which this write
		// replaces: the kept version gets them as a list.
		if err := keepLinks(ctx, tx, run.ID, cur); err != nil {
			return fmt.Errorf("sqlite: storing run %q: %w", run.ID, err)
		}
	}
	if uint64(cur+1) != rows.Version {
		return errVersionMoved
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO runs (id, session_id, agent_id, started_at, ended_at, status, answer, record, events, blob_list, version)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET session_id = excluded.session_id, agent_id = excluded.agent_id,
			started_at = excluded.started_at, ended_at = excluded.ended_at, status = excluded.status,
			answer = excluded.answer, record = excluded.record, events = excluded.events, blob_list = excluded.blob_list,
			version = excluded.version`,
		run.ID, run.SessionID, run.AgentID, nanos(run.StartedAt), nanos(run.EndedAt), string(run.Status), run.Answer,
		rows.Record, events, blobList, int64(rows.Version)); err != nil {
		return fmt.Errorf("sqlite: storing run %q: %w", run.ID, err)
	}
	for _, c := range rows.Chunks {
		if _, err := tx.ExecContext(ctx, `INSERT INTO chunks (sha256, data) VALUES (?, ?) ON CONFLICT (sha256) DO NOTHING`,
			c.Key[:], c.Data); err != nil {
			return fmt.Errorf("sqlite: storing a chunk of run %q: %w", run.ID, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO agentfootprint_meta (key, value) VALUES (?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, stored.PreviousKey(run), run.ID); err != nil {
		return fmt.Errorf("sqlite: storing run %q: %w", run.ID, err)
	}
	if rows.NewDict != nil {
		if _, err := tx.ExecContext(ctx, `INSERT INTO agentfootprint_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING`,
			dictMetaKey(run.AgentID), hex.EncodeToString(rows.NewDict[:])); err != nil {
			return fmt.Errorf("sqlite: storing run %q: %w", run.ID, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM run_blobs WHERE run_id = ?`, run.ID); err != nil {
		return fmt.Errorf("sqlite: storing run %q: %w", run.ID, err)
	}
	for i, b := range run.Blobs {
		if i == len(run.Blobs)/2 && s.midPut != nil {
			s.midPut()
		}
		if err := s.insertBlob(ctx, tx, b.SHA256, len(b.Data), rows.Blobs[i]); err != nil {
			return fmt.Errorf("sqlite: storing blob %s of run %q: %w", b.SHA256, run.ID, err)
		}
		if rows.BlobList != nil {
			continue // the run row lists its blobs
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO run_blobs (run_id, sha256) VALUES (?, ?) ON CONFLICT DO NOTHING`,
			run.ID, b.SHA256); err != nil {
			return fmt.Errorf("sqlite: storing blob %s of run %q: %w", b.SHA256, run.ID, err)
		}
	}
	if len(run.Blobs) == 0 && s.midPut != nil {
		s.midPut()
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: storing run %q: %w", run.ID, err)
	}
	s.views.Put(rows.Written)
	return nil
}

// GetRun implements store.Store.
func (s *runStore) GetRun(ctx context.Context, id string) (*store.Run, error) {
	if err := s.checkOpen(); err != nil {
		return nil, err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("sqlite: reading run %q: %w", id, err)
	}
	defer tx.Rollback()
	run := &store.Run{}
	var started, ended int64
	var status string
	var record, events, blobList []byte
	var version int64
	err = tx.QueryRowContext(ctx, `SELECT id, session_id, agent_id, started_at, ended_at, status, answer, record, events, blob_list, version
		FROM runs WHERE id = ?`, id).Scan(&run.ID, &run.SessionID, &run.AgentID, &started, &ended, &status, &run.Answer, &record, &events, &blobList, &version)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, &store.NotFoundError{Kind: "run", ID: id}
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: reading run %q: %w", id, err)
	}
	run.StartedAt, run.EndedAt, run.Status = fromNanos(started), fromNanos(ended), store.Status(status)
	row := &stored.StoredRun{Record: record, Events: events}
	if row.Blobs, err = runBlobs(ctx, tx, id, blobList); err != nil {
		return nil, fmt.Errorf("sqlite: reading the blobs of run %q: %w", id, err)
	}
	if err := stored.NewReader(source{ctx: ctx, q: tx}, &s.views).Run(stored.Ref{ID: id, Version: uint64(version)}, row); err != nil {
		return nil, fmt.Errorf("sqlite: reading run %q: %w", id, err)
	}
	run.Record, run.Blobs = row.Record, row.Blobs
	if len(row.Events) > 0 {
		run.Events = row.Events
	}
	return run, nil
}

// dictMetaKey is the agentfootprint_meta key under which the dictionary chunk of an agent's
// runs is recorded (its hex key).
func dictMetaKey(agentID string) string { return "dict:" + agentID }

// holder answers the encoder's questions from the store.
type holder struct {
	s   *runStore
	ctx context.Context
}

func (h holder) Held(keys []stored.Key) (map[stored.Key]bool, error) {
	held := make(map[stored.Key]bool, len(keys))
	for len(keys) > 0 {
		batch := keys[:min(len(keys), chunkBatch)]
		keys = keys[len(batch):]
		args := make([]any, len(batch))
		for i := range batch {
			args[i] = batch[i][:]
		}
		rows, err := h.s.db.QueryContext(h.ctx, `SELECT sha256 FROM chunks WHERE sha256 IN (?`+strings.Repeat(", ?", len(batch)-1)+`)`, args...)
		if err != nil {
			return nil, fmt.Errorf("looking up chunks: %w", err)
		}
		for rows.Next() {
			var k []byte
			if err := rows.Scan(&k); err != nil {
				rows.Close()
				return nil, fmt.Errorf("looking up chunks: %w", err)
			}
			if len(k) == len(stored.Key{}) {
				held[stored.Key(k)] = true
			}
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("looking up chunks: %w", err)
		}
	}
	return held, nil
}

func (h holder) Dict(agentID string) (stored.Key, []byte, bool, error) {
	var hexKey string
	err := h.s.db.QueryRowContext(h.ctx, `SELECT value FROM agentfootprint_meta WHERE key = ?`, dictMetaKey(agentID)).Scan(&hexKey)
	if errors.Is(err, sql.ErrNoRows) {
		return stored.Key{}, nil, false, nil
	}
	if err != nil {
		return stored.Key{}, nil, false, fmt.Errorf("reading the dictionary of agent %q: %w", agentID, err)
	}
	k, err := stored.ParseKey(hexKey)
	if err != nil {
		return stored.Key{}, nil, false, fmt.Errorf("the dictionary of agent %q: %w", agentID, err)
	}
	rows, err := readChunks(h.ctx, h.s.db, []stored.Key{k})
	if err != nil {
		return stored.Key{}, nil, false, err
	}
	d, err := stored.UnpackDict(k, rows[k])
	if err != nil {
		return stored.Key{}, nil, false, fmt.Errorf("the dictionary of agent %q: %w", agentID, err)
	}
	return k, d, true, nil
}

func (h holder) Previous(run *store.Run) ([][]byte, error) {
	var id string
	err := h.s.db.QueryRowContext(h.ctx, `SELECT value FROM agentfootprint_meta WHERE key = ?`, stored.PreviousKey(run)).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("finding the previous run: %w", err)
	}
	var record, events, blobList []byte
	err = h.s.db.QueryRowContext(h.ctx, `SELECT record, events, blob_list FROM runs WHERE id = ?`, id).Scan(&record, &events, &blobList)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the previous run %q: %w", id, err)
	}
	out := [][]byte{record, events}
	blobs, err := runBlobs(h.ctx, h.s.db, id, blobList)
	if err != nil {
		return nil, fmt.Errorf("reading the previous run %q: %w", id, err)
	}
	for _, b := range blobs {
		if stored.BlobIsForm(b.SHA256, b.Data) {
			out = append(out, b.Data)
		}
	}
	return out, nil
}

// Base implements stored.Holder: the last run written in run's conversation, and the
// version run's row will have.
func (h holder) Base(run *store.Run) (*stored.Base, uint64, error) {
	own, ok, err := rowVersion(h.ctx, h.s.db, run.ID)
	if err != nil {
		return nil, 0, fmt.Errorf("reading the version of run %q: %w", run.ID, err)
	}
	next := uint64(0)
	if ok {
		next = own + 1
	}
	var id string
	err = h.s.db.QueryRowContext(h.ctx, `SELECT value FROM agentfootprint_meta WHERE key = ?`, stored.PreviousKey(run)).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) || err == nil && id == run.ID {
		return nil, next, nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("finding the previous run: %w", err)
	}
	v, ok, err := rowVersion(h.ctx, h.s.db, id)
	if err != nil || !ok {
		return nil, next, err
	}
	b, err := stored.FindBase(source{ctx: h.ctx, q: h.s.db}, stored.Ref{ID: id, Version: v}, &h.s.views)
	if err != nil {
		return nil, 0, fmt.Errorf("reading the previous run %q: %w", id, err)
	}
	return b, next, nil
}

// rowVersion returns the version of run id's row; ok is false when there is none.
func rowVersion(ctx context.Context, q queryer, id string) (uint64, bool, error) {
	var v int64
	err := q.QueryRowContext(ctx, `SELECT version FROM runs WHERE id = ?`, id).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
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
	q   queryer
}

func (src source) Run(ref stored.Ref) (*stored.StoredRun, bool, error) {
	var record, events, blobList []byte
	var version int64
	err := src.q.QueryRowContext(src.ctx, `SELECT record, events, blob_list, version FROM runs WHERE id = ?`, ref.ID).Scan(&record, &events, &blobList, &version)
	if err == nil && uint64(version) != ref.Version {
		err = src.q.QueryRowContext(src.ctx, `SELECT record, events, blob_list FROM run_versions WHERE id = ? AND version = ?`,
			ref.ID, int64(ref.Version)).Scan(&record, &events, &blobList)
	}
	if errors.Is(err, sql.ErrNoRows) {
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

// queryer is what the reads need of a database or a transaction.
type queryer interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
	QueryRowContext(context.Context, string, ...any) *sql.Row
}

// runBlobs returns the blob rows of run id as stored (forms not rebuilt), sorted by digest:
// those its row lists (list, since schema 2) or, for a row written before (nil list), those
// its links name. A listed blob that is missing is an error.
func runBlobs(ctx context.Context, q queryer, id string, list []byte) ([]store.Blob, error) {
	var out []store.Blob
	scan := func(rows *sql.Rows) error {
		defer rows.Close()
		for rows.Next() {
			var b store.Blob
			if err := rows.Scan(&b.SHA256, &b.Data); err != nil {
				return err
			}
			if b.Data == nil {
				b.Data = []byte{}
			}
			out = append(out, b)
		}
		return rows.Err()
	}
	if list == nil {
		rows, err := q.QueryContext(ctx, `SELECT b.sha256, b.data FROM run_blobs l JOIN blobs b ON b.sha256 = l.sha256
			WHERE l.run_id = ? ORDER BY b.sha256`, id)
		if err != nil {
			return nil, err
		}
		return out, scan(rows)
	}
	digests, err := stored.ParseBlobList(list)
	if err != nil {
		return nil, err
	}
	// Rows written since schema 3 are in blob_data under binary digests; earlier ones in
	// blobs.
	found := map[string]bool{}
	for rest := digests; len(rest) > 0; {
		batch := rest[:min(len(rest), chunkBatch)]
		rest = rest[len(batch):]
		args := make([]any, len(batch))
		for i := range batch {
			k, err := stored.ParseKey(batch[i])
			if err != nil {
				return nil, err
			}
			args[i] = k[:]
		}
		rows, err := q.QueryContext(ctx, `SELECT sha256, data FROM blob_data WHERE sha256 IN (?`+strings.Repeat(", ?", len(batch)-1)+`)`, args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var k, data []byte
			if err := rows.Scan(&k, &data); err != nil {
				rows.Close()
				return nil, err
			}
			if data == nil {
				data = []byte{}
			}
			d := hex.EncodeToString(k)
			found[d] = true
			out = append(out, store.Blob{SHA256: d, Data: data})
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, err
		}
	}
	var older []string
	for _, d := range digests {
		if !found[d] {
			older = append(older, d)
		}
	}
	for len(older) > 0 {
		batch := older[:min(len(older), chunkBatch)]
		older = older[len(batch):]
		args := make([]any, len(batch))
		for i := range batch {
			args[i] = batch[i]
		}
		rows, err := q.QueryContext(ctx, `SELECT sha256, data FROM blobs WHERE sha256 IN (?`+strings.Repeat(", ?", len(batch)-1)+`)`, args...)
		if err != nil {
			return nil, err
		}
		if err := scan(rows); err != nil {
			return nil, err
		}
	}
	if want := len(digests); len(out) != want {
		return nil, fmt.Errorf("%d of the %d blobs the run lists are missing", want-len(out), want)
	}
	slices.SortFunc(out, func(a, b store.Blob) int { return strings.Compare(a.SHA256, b.SHA256) })
	return out, nil
}

// chunkBatch bounds the keys one chunk query names (SQLite caps a statement's parameters).
const chunkBatch = 500

// readChunks returns the stored data of the chunks under keys; keys not found are left out.
func readChunks(ctx context.Context, q queryer, keys []stored.Key) (map[stored.Key][]byte, error) {
	out := make(map[stored.Key][]byte, len(keys))
	for len(keys) > 0 {
		batch := keys[:min(len(keys), chunkBatch)]
		keys = keys[len(batch):]
		args := make([]any, len(batch))
		for i := range batch {
			args[i] = batch[i][:]
		}
		rows, err := q.QueryContext(ctx, `SELECT sha256, data FROM chunks WHERE sha256 IN (?`+strings.Repeat(", ?", len(batch)-1)+`)`, args...)
		if err != nil {
			return nil, fmt.Errorf("reading chunks: %w", err)
		}
		for rows.Next() {
			var k, data []byte
			if err := rows.Scan(&k, &data); err != nil {
				rows.Close()
				return nil, fmt.Errorf("reading chunks: %w", err)
			}
			if len(k) == len(stored.Key{}) {
				out[stored.Key(k)] = data
			}
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("reading chunks: %w", err)
		}
	}
	return out, nil
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
	if f.SessionID != "" {
		where, args = append(where, "session_id = ?"), append(args, f.SessionID)
	}
	if f.AgentID != "" {
		where, args = append(where, "agent_id = ?"), append(args, f.AgentID)
	}
	if f.Status != "" {
		where, args = append(where, "status = ?"), append(args, string(f.Status))
	}
	if !f.Since.IsZero() {
		where, args = append(where, "started_at >= ?"), append(args, f.Since.UnixNano())
	}
	if !f.Until.IsZero() {
		where, args = append(where, "started_at < ?"), append(args, f.Until.UnixNano())
	}
	q := `SELECT id, session_id, agent_id, started_at, ended_at, status, answer FROM runs`
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY started_at DESC, id DESC"
	if f.Limit > 0 {
		q += " LIMIT ?"
		args = append(args, f.Limit)
	}
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: listing runs: %w", err)
	}
	defer rows.Close()
	var out []store.RunInfo
	for rows.Next() {
		var r store.RunInfo
		var started, ended int64
		var status string
		if err := rows.Scan(&r.ID, &r.SessionID, &r.AgentID, &started, &ended, &status, &r.Answer); err != nil {
			return nil, fmt.Errorf("sqlite: listing runs: %w", err)
		}
		r.StartedAt, r.EndedAt, r.Status = fromNanos(started), fromNanos(ended), store.Status(status)
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: listing runs: %w", err)
	}
	return out, nil
}

// PutBlob implements store.Store.
func (s *runStore) PutBlob(ctx context.Context, data []byte) (string, error) {
	if err := s.checkOpen(); err != nil {
		return "", err
	}
	d := store.Digest(data)
	if data == nil {
		data = []byte{}
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if err := s.insertBlob(ctx, s.db, d, len(data), data); err != nil {
		return "", fmt.Errorf("sqlite: storing blob %s: %w", d, err)
	}
	return d, nil
}

// execer is what a write needs of a database or a transaction.
type execer interface {
	ExecContext(context.Context, string, ...any) (sql.Result, error)
}

// insertBlob writes the blob row of digest (lowercase hex) holding data (the blob's bytes or
// their form) unless the store holds it: since schema 3 in blob_data, under the binary
// digest; in the layout of schema 1 (tests) in blobs, under the hex one.
func (s *runStore) insertBlob(ctx context.Context, q execer, digest string, size int, data []byte) error {
	if s.mode == stored.Whole {
		_, err := q.ExecContext(ctx, `INSERT INTO blobs (sha256, size, data) VALUES (?, ?, ?) ON CONFLICT (sha256) DO NOTHING`,
			digest, size, data)
		return err
	}
	k, err := stored.ParseKey(digest)
	if err != nil {
		return err
	}
	_, err = q.ExecContext(ctx, `INSERT INTO blob_data (sha256, data) SELECT ?, ? WHERE NOT EXISTS (SELECT 1 FROM blobs WHERE sha256 = ?)
		ON CONFLICT (sha256) DO NOTHING`, k[:], data, digest)
	return err
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
	k, err := stored.ParseKey(d)
	if err != nil {
		return nil, err
	}
	err = s.db.QueryRowContext(ctx, `SELECT data FROM blob_data WHERE sha256 = ?`, k[:]).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		err = s.db.QueryRowContext(ctx, `SELECT data FROM blobs WHERE sha256 = ?`, d).Scan(&data)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return nil, &store.NotFoundError{Kind: "blob", ID: d}
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: reading blob %s: %w", d, err)
	}
	if data, err = stored.NewReader(source{ctx: ctx, q: s.db}, &s.views).Blob(d, data); err != nil {
		return nil, fmt.Errorf("sqlite: reading blob %s: %w", d, err)
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
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if _, err := s.db.ExecContext(ctx, `INSERT INTO checkpoints (session_id, run_id, data, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (session_id) DO UPDATE SET run_id = excluded.run_id, data = excluded.data, updated_at = excluded.updated_at`,
		cp.SessionID, cp.RunID, []byte(cp.Data), now.UnixNano()); err != nil {
		return fmt.Errorf("sqlite: storing the checkpoint of session %q: %w", cp.SessionID, err)
	}
	cp.UpdatedAt = now
	return nil
}

// GetCheckpoint implements store.Store.
func (s *runStore) GetCheckpoint(ctx context.Context, sessionID string) (*store.Checkpoint, error) {
	if err := s.checkOpen(); err != nil {
		return nil, err
	}
	cp := &store.Checkpoint{}
	var data []byte
	var updated int64
	err := s.db.QueryRowContext(ctx, `SELECT session_id, run_id, data, updated_at FROM checkpoints WHERE session_id = ?`, sessionID).
		Scan(&cp.SessionID, &cp.RunID, &data, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, &store.NotFoundError{Kind: "checkpoint", ID: sessionID}
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: reading the checkpoint of session %q: %w", sessionID, err)
	}
	cp.Data, cp.UpdatedAt = data, fromNanos(updated)
	return cp, nil
}
