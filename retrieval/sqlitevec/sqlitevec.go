// Package sqlitevec is an exact-cosine retrieval index in a SQLite table:
// vectors as float32 blobs, scanned in full for each query. It can live in
// the run store's file (its table is its own, created if missing), so the
// embedded default needs nothing more.
package sqlitevec

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/retrieval"
	"github.com/agentfootprint/agentfootprint-go/retrieval/internal/vec"
	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver
)

const schema = `CREATE TABLE IF NOT EXISTS af_retrieval_passages (
	corpus   TEXT NOT NULL,
	id       TEXT NOT NULL,
	source   TEXT NOT NULL,
	text     TEXT NOT NULL,
	metadata TEXT NOT NULL,
	dims     INTEGER NOT NULL,
	vector   BLOB NOT NULL,
	PRIMARY KEY (corpus, id)
)`

// index is the passages of one corpus in one SQLite file. It implements
// retrieval.Index and is safe for concurrent use.
type index struct {
	db     *sql.DB
	corpus string
	dims   int
}

// Open opens (creating if needed) the file at path and the index of corpus
// in it, for vectors of dims dimensions. path may be the run store's file.
// Close it when done.
func Open(ctx context.Context, path, corpus string, dims int) (retrieval.Index, error) {
	if path == "" {
		return nil, errors.New("sqlitevec: empty path")
	}
	if strings.ContainsRune(path, '?') {
		return nil, fmt.Errorf("sqlitevec: path %q contains '?', which SQLite would read as options", path)
	}
	if corpus == "" {
		return nil, errors.New("sqlitevec: empty corpus name")
	}
	if dims < 1 {
		return nil, fmt.Errorf("sqlitevec: dims is %d; give the embedder's vector length", dims)
	}
	db, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)")
	if err != nil {
		return nil, fmt.Errorf("sqlitevec: opening %s: %w", path, err)
	}
	db.SetMaxOpenConns(4)
	if _, err := db.ExecContext(ctx, schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlitevec: creating the passages table in %s: %w", path, err)
	}
	return &index{db: db, corpus: corpus, dims: dims}, nil
}

// Close closes the file.
func (x *index) Close() error { return x.db.Close() }

// Put stores entries in one transaction, replacing those with the same id;
// it refuses the batch, storing none, on an invalid entry.
func (x *index) Put(ctx context.Context, entries ...retrieval.Entry) error {
	rows := make([][]any, len(entries))
	for i, e := range entries {
		if err := e.Passage.Validate(); err != nil {
			return fmt.Errorf("sqlitevec: %w", err)
		}
		v, err := vec.Entry(e.Passage.ID, e.Vector, x.dims)
		if err != nil {
			return fmt.Errorf("sqlitevec: %w", err)
		}
		md, err := json.Marshal(orEmpty(e.Passage.Metadata))
		if err != nil {
			return fmt.Errorf("sqlitevec: passage %q: metadata: %w", e.Passage.ID, err)
		}
		rows[i] = []any{x.corpus, e.Passage.ID, e.Passage.Source, e.Passage.Text, string(md), x.dims, vec.Encode(v)}
	}
	tx, err := x.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlitevec: %w", err)
	}
	defer tx.Rollback()
	st, err := tx.PrepareContext(ctx, `INSERT INTO af_retrieval_passages (corpus, id, source, text, metadata, dims, vector)
		VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (corpus, id) DO UPDATE SET source = excluded.source, text = excluded.text,
		metadata = excluded.metadata, dims = excluded.dims, vector = excluded.vector`)
	if err != nil {
		return fmt.Errorf("sqlitevec: %w", err)
	}
	defer st.Close()
	for _, r := range rows {
		if _, err := st.ExecContext(ctx, r...); err != nil {
			return fmt.Errorf("sqlitevec: storing passage %q: %w", r[1], err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlitevec: %w", err)
	}
	return nil
}

// Search scans every vector of the corpus and returns the n best passages.
func (x *index) Search(ctx context.Context, query []float32, n int) ([]retrieval.Scored, error) {
	q, err := vec.Query(query, x.dims)
	if err != nil {
		return nil, fmt.Errorf("sqlitevec: %w", err)
	}
	rows, err := x.db.QueryContext(ctx, `SELECT id, vector FROM af_retrieval_passages WHERE corpus = ?`, x.corpus)
	if err != nil {
		return nil, fmt.Errorf("sqlitevec: searching %q: %w", x.corpus, err)
	}
	defer rows.Close()
	best := vec.NewBest(n)
	var buf []float32
	for rows.Next() {
		var id string
		var blob []byte
		if err := rows.Scan(&id, &blob); err != nil {
			return nil, fmt.Errorf("sqlitevec: searching %q: %w", x.corpus, err)
		}
		if buf, err = vec.Decode(buf, blob, x.dims); err != nil {
			return nil, fmt.Errorf("sqlitevec: passage %q: %w", id, err)
		}
		best.Offer(vec.Hit{ID: id, Score: vec.Dot(q, buf)})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlitevec: searching %q: %w", x.corpus, err)
	}
	rows.Close()
	hits := best.Sorted()
	out := make([]retrieval.Scored, 0, len(hits))
	for _, h := range hits {
		p, err := x.passage(ctx, h.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, retrieval.Scored{Passage: p, Score: h.Score})
	}
	return out, nil
}

func (x *index) passage(ctx context.Context, id string) (retrieval.Passage, error) {
	var p retrieval.Passage
	var md string
	err := x.db.QueryRowContext(ctx, `SELECT id, source, text, metadata FROM af_retrieval_passages WHERE corpus = ? AND id = ?`,
		x.corpus, id).Scan(&p.ID, &p.Source, &p.Text, &md)
	if err != nil {
		return p, fmt.Errorf("sqlitevec: reading passage %q: %w", id, err)
	}
	return p, decodeMetadata(&p, md)
}

// Passages lists the corpus's passages in id order.
func (x *index) Passages(ctx context.Context) ([]retrieval.Passage, error) {
	rows, err := x.db.QueryContext(ctx, `SELECT id, source, text, metadata FROM af_retrieval_passages WHERE corpus = ? ORDER BY id`, x.corpus)
	if err != nil {
		return nil, fmt.Errorf("sqlitevec: listing %q: %w", x.corpus, err)
	}
	defer rows.Close()
	var out []retrieval.Passage
	for rows.Next() {
		var p retrieval.Passage
		var md string
		if err := rows.Scan(&p.ID, &p.Source, &p.Text, &md); err != nil {
			return nil, fmt.Errorf("sqlitevec: listing %q: %w", x.corpus, err)
		}
		if err := decodeMetadata(&p, md); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

func decodeMetadata(p *retrieval.Passage, md string) error {
	if md == "" || md == "{}" {
		return nil
	}
	if err := json.Unmarshal([]byte(md), &p.Metadata); err != nil {
		return fmt.Errorf("sqlitevec: passage %q: metadata is not a JSON object of strings: %w", p.ID, err)
	}
	return nil
}

func orEmpty(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}
