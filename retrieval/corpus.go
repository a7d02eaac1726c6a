// Corpus: a named set of passages, its embedder, its index and what it covers.

package retrieval

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/agentfootprint/agentfootprint-go/internal/idchars"
)

// Corpus is a named, searchable set of passages.
type Corpus struct {
	name     string
	kind     inject.Kind
	emb      Embedder
	idx      Index
	coverage json.RawMessage
}

// CorpusOption adjusts a corpus at construction.
type CorpusOption func(*Corpus) error

// WithCoverage declares what the corpus covers, in the coverage vocabulary a
// tool's result uses: the ground it checked, the ground it did not check,
// the ground it cannot cover (each with a why) and the period its passages
// span. The declaration is checked here and recorded with every query of
// the corpus.
//
//	retrieval.WithCoverage(coverage.LedgerDecl{
//		Checked:     []coverage.Item{{What: "the operations runbook"}},
//		CannotCover: []coverage.Item{{What: "incidents after March", Why: "the runbook was last edited in March"}},
//	})
func WithCoverage(d coverage.LedgerDecl) CorpusOption {
	return func(c *Corpus) error {
		cov, err := coverage.Wrap(nil, d)
		if err != nil {
			return fmt.Errorf("coverage: %w", err)
		}
		raw, err := json.Marshal(cov)
		if err != nil {
			return fmt.Errorf("coverage: %w", err)
		}
		c.coverage = raw
		return nil
	}
}

// WithCoverageData is WithCoverage for a declaration given as decoded JSON
// (the members checked, notChecked, cannotCover and period of a tool
// result's coverage ledger), as a scenario file writes it.
func WithCoverageData(decl any) CorpusOption {
	return func(c *Corpus) error {
		cov, err := coverage.WrapData(nil, decl)
		if err != nil {
			return fmt.Errorf("coverage: %w", err)
		}
		raw, err := json.Marshal(cov)
		if err != nil {
			return fmt.Errorf("coverage: %w", err)
		}
		c.coverage = raw
		return nil
	}
}

// NewCorpus returns the corpus name over idx, embedding with emb. The name
// follows the rules of a unit id. It refuses a bad name, a nil embedder or
// index, and a bad option, naming each.
func NewCorpus(name string, emb Embedder, idx Index, opts ...CorpusOption) (*Corpus, error) {
	return newCorpus(name, inject.KindRAG, emb, idx, opts)
}

// MustCorpus is NewCorpus for a corpus known to be well defined; it panics
// on an error.
func MustCorpus(c *Corpus, err error) *Corpus {
	if err != nil {
		panic(err)
	}
	return c
}

func newCorpus(name string, kind inject.Kind, emb Embedder, idx Index, opts []CorpusOption) (*Corpus, error) {
	if !idchars.Valid(name, &idFirst, &idRest, maxID) {
		return nil, fmt.Errorf("retrieval: corpus name %q: must be lower-case letters, digits, '.', '_' or '-', at most 64", name)
	}
	if emb == nil {
		return nil, fmt.Errorf("retrieval: corpus %q: the embedder is nil", name)
	}
	if idx == nil {
		return nil, fmt.Errorf("retrieval: corpus %q: the index is nil", name)
	}
	c := &Corpus{name: name, kind: kind, emb: emb, idx: idx}
	for _, o := range opts {
		if o == nil {
			continue
		}
		if err := o(c); err != nil {
			return nil, fmt.Errorf("retrieval: corpus %q: %w", name, err)
		}
	}
	return c, nil
}

// Name returns the corpus name.
func (c *Corpus) Name() string { return c.name }

// Add embeds passages and stores them, replacing passages with the same id.
// It refuses the batch, storing none, when a passage is invalid or repeats
// an id.
func (c *Corpus) Add(ctx context.Context, passages ...Passage) error {
	if len(passages) == 0 {
		return nil
	}
	seen := make(map[string]bool, len(passages))
	texts := make([]string, len(passages))
	for i, p := range passages {
		if err := p.Validate(); err != nil {
			return fmt.Errorf("retrieval: corpus %q: passage %d: %w", c.name, i, err)
		}
		if seen[p.ID] {
			return fmt.Errorf("retrieval: corpus %q: passage %d: id %q appears twice", c.name, i, p.ID)
		}
		seen[p.ID] = true
		texts[i] = p.Text
	}
	vecs, err := c.emb.Embed(ctx, texts)
	if err != nil {
		return fmt.Errorf("retrieval: corpus %q: embedding %d passages: %w", c.name, len(texts), err)
	}
	if len(vecs) != len(texts) {
		return fmt.Errorf("retrieval: corpus %q: the embedder returned %d vectors for %d passages", c.name, len(vecs), len(texts))
	}
	ents := make([]Entry, len(passages))
	for i, p := range passages {
		ents[i] = Entry{Passage: p, Vector: vecs[i]}
	}
	if err := c.idx.Put(ctx, ents...); err != nil {
		return fmt.Errorf("retrieval: corpus %q: %w", c.name, err)
	}
	return nil
}

// Retrieve embeds query and returns the n most similar passages, best first;
// equal scores are ordered by id, so the same corpus and query give the same list.
func (c *Corpus) Retrieve(ctx context.Context, query string, n int) ([]Scored, error) {
	vecs, err := c.emb.Embed(ctx, []string{query})
	if err != nil {
		return nil, fmt.Errorf("retrieval: corpus %q: embedding the query: %w", c.name, err)
	}
	if len(vecs) != 1 {
		return nil, fmt.Errorf("retrieval: corpus %q: the embedder returned %d vectors for one query", c.name, len(vecs))
	}
	out, err := c.idx.Search(ctx, vecs[0], n)
	if err != nil {
		return nil, fmt.Errorf("retrieval: corpus %q: %w", c.name, err)
	}
	return out, nil
}

// Passages lists the corpus's passages in id order.
func (c *Corpus) Passages(ctx context.Context) ([]Passage, error) {
	ps, err := c.idx.Passages(ctx)
	if err != nil {
		return nil, fmt.Errorf("retrieval: corpus %q: %w", c.name, err)
	}
	return ps, nil
}
