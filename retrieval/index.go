// The Index seam and the in-memory exact index.

package retrieval

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/agentfootprint/agentfootprint-go/retrieval/internal/vec"
)

// Entry is a passage with its vector, as an Index stores it.
type Entry struct {
	Passage Passage
	Vector  []float32
}

// Index keeps entries of one corpus and scores them against a query
// vector. Put replaces an entry with the same id. Search returns the n best
// by cosine, best first, equal scores by id. Passages lists every passage in
// id order. Close releases what the index holds open (a database
// connection; nothing for the memory index). Implementations are safe for
// concurrent use.
type Index interface {
	Put(ctx context.Context, entries ...Entry) error
	Search(ctx context.Context, query []float32, n int) ([]Scored, error)
	Passages(ctx context.Context) ([]Passage, error)
	Close() error
}

// memoryIndex is the exact index held in memory, for tests, the demo and
// small corpora.
type memoryIndex struct {
	dims int
	mu   sync.RWMutex
	ents map[string]memEntry
}

type memEntry struct {
	p Passage
	v []float32 // normalized
}

// NewMemoryIndex returns an empty exact index of dims-dimension vectors held
// in memory, for tests, the demo and small corpora. It refuses dims < 1.
func NewMemoryIndex(dims int) (Index, error) {
	if dims < 1 {
		return nil, fmt.Errorf("retrieval: memory index: dims is %d; give the embedder's vector length", dims)
	}
	return &memoryIndex{dims: dims, ents: map[string]memEntry{}}, nil
}

// Put stores entries, refusing (before storing any) an invalid passage or a
// vector of the wrong length or without a direction.
func (m *memoryIndex) Put(ctx context.Context, entries ...Entry) error {
	prepared := make([]memEntry, len(entries))
	for i, e := range entries {
		v, err := prepare(e, m.dims)
		if err != nil {
			return err
		}
		prepared[i] = memEntry{p: clonePassage(e.Passage), v: v}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, e := range prepared {
		m.ents[e.p.ID] = e
	}
	return nil
}

// Search scans every entry.
func (m *memoryIndex) Search(ctx context.Context, query []float32, n int) ([]Scored, error) {
	q, err := vec.Query(query, m.dims)
	if err != nil {
		return nil, err
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	best := vec.NewBest(n)
	for id, e := range m.ents {
		best.Offer(vec.Hit{ID: id, Score: vec.Dot(q, e.v)})
	}
	hits := best.Sorted()
	out := make([]Scored, len(hits))
	for i, h := range hits {
		out[i] = Scored{Passage: clonePassage(m.ents[h.ID].p), Score: h.Score}
	}
	return out, ctx.Err()
}

// Passages lists the stored passages in id order.
// Close does nothing: the memory index holds nothing open.
func (m *memoryIndex) Close() error { return nil }

func (m *memoryIndex) Passages(ctx context.Context) ([]Passage, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := make([]Passage, 0, len(m.ents))
	for _, e := range m.ents {
		out = append(out, clonePassage(e.p))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// prepare validates an entry for an index of dims dimensions and returns
// its normalized vector.
func prepare(e Entry, dims int) ([]float32, error) {
	if err := e.Passage.Validate(); err != nil {
		return nil, err
	}
	return vec.Entry(e.Passage.ID, e.Vector, dims)
}

func clonePassage(p Passage) Passage {
	if p.Metadata != nil {
		m := make(map[string]string, len(p.Metadata))
		for k, v := range p.Metadata {
			m[k] = v
		}
		p.Metadata = m
	}
	return p
}
