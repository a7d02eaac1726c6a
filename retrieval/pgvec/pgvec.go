// Package pgvec is an exact-cosine retrieval index in a PostgreSQL table:
// vectors as float32 bytea, streamed and scored in Go for each query (no
// extension needed). Its table is its own, created if missing, and can sit in
// the run store's database.
package pgvec

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/retrieval"
	"github.com/agentfootprint/agentfootprint-go/retrieval/internal/vec"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

const schema = `CREATE TABLE IF NOT EXISTS af_retrieval_passages (
	corpus   TEXT NOT NULL,
	id       TEXT NOT NULL,
	source   TEXT NOT NULL,
	text     TEXT NOT NULL,
	metadata JSONB NOT NULL,
	dims     INTEGER NOT NULL,
	vector   BYTEA NOT NULL,
	PRIMARY KEY (corpus, id)
)`

// index is the passages of one corpus in one PostgreSQL database. It
// implements retrieval.Index and is safe for concurrent use.
type index struct {
	pool   *pgxpool.Pool
	corpus string
	dims   int
}

// Open connects to dsn (a postgres:// URL; its search_path decides the
// schema) and opens the index of corpus, for vectors of dims dimensions.
// Close it when done.
func Open(ctx context.Context, dsn, corpus string, dims int) (retrieval.Index, error) {
	if corpus == "" {
		return nil, errors.New("pgvec: empty corpus name")
	}
	if dims < 1 {
		return nil, fmt.Errorf("pgvec: dims is %d; give the embedder's vector length", dims)
	}
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("pgvec: reading the connection string: %w", err)
	}
	cfg.MaxConns = 4
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("pgvec: %w", err)
	}
	if _, err := pool.Exec(ctx, schema); err != nil {
		pool.Close()
		return nil, fmt.Errorf("pgvec: creating the passages table: %w", err)
	}
	return &index{pool: pool, corpus: corpus, dims: dims}, nil
}

// Close closes the connections.
func (x *index) Close() error {
	x.pool.Close()
	return nil
}

// Put stores entries in one transaction, replacing those with the same id;
// it refuses the batch, storing none, on an invalid entry.
func (x *index) Put(ctx context.Context, entries ...retrieval.Entry) error {
	b := &pgx.Batch{}
	for _, e := range entries {
		if err := e.Passage.Validate(); err != nil {
			return fmt.Errorf("pgvec: %w", err)
		}
		v, err := vec.Entry(e.Passage.ID, e.Vector, x.dims)
		if err != nil {
			return fmt.Errorf("pgvec: %w", err)
		}
		md := e.Passage.Metadata
		if md == nil {
			md = map[string]string{}
		}
		mdj, err := json.Marshal(md)
		if err != nil {
			return fmt.Errorf("pgvec: passage %q: metadata: %w", e.Passage.ID, err)
		}
		b.Queue(`INSERT INTO af_retrieval_passages (corpus, id, source, text, metadata, dims, vector)
			VALUES ($1, $2, $3, $4, $5, $6, $7)
			ON CONFLICT (corpus, id) DO UPDATE SET source = excluded.source, text = excluded.text,
			metadata = excluded.metadata, dims = excluded.dims, vector = excluded.vector`,
			x.corpus, e.Passage.ID, e.Passage.Source, e.Passage.Text, string(mdj), x.dims, vec.Encode(v))
	}
	tx, err := x.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("pgvec: %w", err)
	}
	defer tx.Rollback(ctx)
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("pgvec: storing passages of %q: %w", x.corpus, err)
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("pgvec: %w", err)
	}
	return nil
}

// Search streams every vector of the corpus and returns the n best passages.
func (x *index) Search(ctx context.Context, query []float32, n int) ([]retrieval.Scored, error) {
	q, err := vec.Query(query, x.dims)
	if err != nil {
		return nil, fmt.Errorf("pgvec: %w", err)
	}
	rows, err := x.pool.Query(ctx, `SELECT id, vector FROM af_retrieval_passages WHERE corpus = $1`, x.corpus)
	if err != nil {
		return nil, fmt.Errorf("pgvec: searching %q: %w", x.corpus, err)
	}
	best := vec.NewBest(n)
	var buf []float32
	var id string
	var blob []byte
	_, err = pgx.ForEachRow(rows, []any{&id, &blob}, func() error {
		var derr error
		if buf, derr = vec.Decode(buf, blob, x.dims); derr != nil {
			return fmt.Errorf("passage %q: %w", id, derr)
		}
		best.Offer(vec.Hit{ID: id, Score: vec.Dot(q, buf)})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("pgvec: searching %q: %w", x.corpus, err)
	}
	hits := best.Sorted()
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
	}
	ps, err := x.read(ctx, `SELECT id, source, text, metadata FROM af_retrieval_passages WHERE corpus = $1 AND id = ANY($2)`, x.corpus, ids)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]retrieval.Passage, len(ps))
	for _, p := range ps {
		byID[p.ID] = p
	}
	out := make([]retrieval.Scored, 0, len(hits))
	for _, h := range hits {
		p, ok := byID[h.ID]
		if !ok {
			continue // deleted between the scan and the read
		}
		out = append(out, retrieval.Scored{Passage: p, Score: h.Score})
	}
	return out, nil
}

// Passages lists the corpus's passages in id order.
func (x *index) Passages(ctx context.Context) ([]retrieval.Passage, error) {
	return x.read(ctx, `SELECT id, source, text, metadata FROM af_retrieval_passages WHERE corpus = $1 ORDER BY id COLLATE "C"`, x.corpus)
}

func (x *index) read(ctx context.Context, q string, args ...any) ([]retrieval.Passage, error) {
	rows, err := x.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("pgvec: reading passages of %q: %w", x.corpus, err)
	}
	var out []retrieval.Passage
	var p retrieval.Passage
	var md map[string]string
	_, err = pgx.ForEachRow(rows, []any{&p.ID, &p.Source, &p.Text, &md}, func() error {
		q := p
		if len(md) > 0 {
			q.Metadata = md
		}
		md = nil
		out = append(out, q)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("pgvec: reading passages of %q: %w", x.corpus, err)
	}
	return out, nil
}
