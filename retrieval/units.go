// Units: a corpus as context units, and the query each evaluation runs.

package retrieval

import (
	"context"
	"fmt"
	"math"

	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/inject"
)

// Option adjusts how a corpus's units pick passages.
type Option func(*search) error

// WithTopK places at most k passages per query (default 3).
func WithTopK(k int) Option {
	return func(s *search) error {
		if k < 1 {
			return fmt.Errorf("top K is %d; give at least 1", k)
		}
		s.topK = k
		return nil
	}
}

// WithThreshold drops candidates whose cosine score is below min.
func WithThreshold(min float64) Option {
	return func(s *search) error {
		if math.IsNaN(min) || min < -1 || min > 1 {
			return fmt.Errorf("threshold %v is not a cosine score in [-1, 1]", min)
		}
		s.threshold = &min
		return nil
	}
}

// WithBudget bounds the characters (UTF-16 code units) of the passages
// placed per query; a candidate that does not fit the budget left is
// dropped and a shorter one further down may still fit. 0 means no bound.
func WithBudget(chars int) Option {
	return func(s *search) error {
		if chars < 0 {
			return fmt.Errorf("budget %d is negative", chars)
		}
		s.budget = chars
		return nil
	}
}

// WithCandidates is how many passages the index returns for the record
// (default 10, at least the top K). Every candidate is recorded with its
// score, picked or not.
func WithCandidates(n int) Option {
	return func(s *search) error {
		if n < 1 {
			return fmt.Errorf("candidates is %d; give at least 1", n)
		}
		s.candidates = n
		return nil
	}
}

// WithQuery derives the query from state instead of the person's message.
// fn must read state through the reader it is given, so the record shows
// which keys made the query; label names the rule in the record.
func WithQuery(label string, fn func(flow.Reader) string) Option {
	return func(s *search) error {
		if fn == nil {
			return fmt.Errorf("query %q: the func is nil", label)
		}
		s.queryLabel, s.query = label, fn
		return nil
	}
}

// WithUnitOptions applies opts (a slot, a priority, a version) to every
// passage unit.
func WithUnitOptions(opts ...inject.Option) Option {
	return func(s *search) error {
		s.unitOpts = append(s.unitOpts, opts...)
		return nil
	}
}

// queryFromMessage is the default query: the person's message of the turn.
func queryFromMessage(r flow.Reader) string {
	v, _ := r.Get(state.KeyUserMessage.KeyName())
	s, _ := v.(string)
	return s
}

// search is the inject.Retrieval of one corpus's units.
type search struct {
	corpus     *Corpus
	topK       int
	threshold  *float64
	budget     int
	candidates int
	queryLabel string
	query      func(flow.Reader) string
	unitOpts   []inject.Option
}

// Units returns one context unit per passage of c, in id order. Each
// iteration the first of them to be evaluated queries c (with the person's
// message unless WithQuery says otherwise), and each unit fires when its
// passage is picked. Passages added to c after Units are not units of the
// agent built from them: build the agent again to place them (the record
// drops them as "no-unit"). It refuses a bad option, naming it.
func Units(ctx context.Context, c *Corpus, opts ...Option) ([]*inject.Unit, error) {
	if c == nil {
		return nil, fmt.Errorf("retrieval: units: the corpus is nil")
	}
	s := &search{corpus: c, topK: 3, queryLabel: "the person's message", query: queryFromMessage}
	for _, o := range opts {
		if o == nil {
			continue
		}
		if err := o(s); err != nil {
			return nil, fmt.Errorf("retrieval: units of corpus %q: %w", c.name, err)
		}
	}
	if s.candidates == 0 {
		s.candidates = max(10, s.topK)
	}
	if s.candidates < s.topK {
		return nil, fmt.Errorf("retrieval: units of corpus %q: candidates (%d) is fewer than the top K (%d)", c.name, s.candidates, s.topK)
	}
	ps, err := c.Passages(ctx)
	if err != nil {
		return nil, fmt.Errorf("retrieval: units: %w", err)
	}
	units := make([]*inject.Unit, 0, len(ps))
	for _, p := range ps {
		u, err := inject.Passage(c.kind, p.ID, p.Text, s, append(s.unitOpts, inject.WithCallerSkip(1))...)
		if err != nil {
			return nil, fmt.Errorf("retrieval: units of corpus %q: %w", c.name, err)
		}
		units = append(units, u)
	}
	return units, nil
}

// Name is the corpus name.
func (s *search) Name() string { return s.corpus.name }

// Retrieve runs one query and picks within threshold, top K and budget.
func (s *search) Retrieve(ctx context.Context, r flow.Reader) inject.Retrieved {
	rec := inject.Retrieved{Retrieval: s.corpus.name, TopK: s.topK, Threshold: s.threshold, Budget: s.budget,
		Candidates: []inject.Candidate{}}
	if s.corpus.coverage != nil {
		rec.Coverage = s.corpus.coverage
	}
	rec.Query = s.query(r)
	if rec.Query == "" {
		rec.Error = "the query (" + s.queryLabel + ") is empty; nothing was retrieved"
		return rec
	}
	found, err := s.corpus.Retrieve(ctx, rec.Query, s.candidates)
	if err != nil {
		rec.Error = err.Error()
		return rec
	}
	pick(&rec, found)
	return rec
}

// pick fills rec's candidates from found (best first): each is picked
// unless its score is under rec.Threshold, rec.TopK are already picked, or
// its text does not fit what is left of rec.Budget; the reason is recorded.
// rec.Spent is the characters picked.
func pick(rec *inject.Retrieved, found []Scored) {
	picked := 0
	for i, f := range found {
		c := inject.Candidate{ID: f.ID, Source: f.Source, Score: f.Score, Rank: i + 1, Chars: chars(f.Text)}
		switch {
		case rec.Threshold != nil && f.Score < *rec.Threshold:
			c.Dropped = inject.DropThreshold
		case rec.TopK > 0 && picked >= rec.TopK:
			c.Dropped = inject.DropTopK
		case rec.Budget > 0 && rec.Spent+c.Chars > rec.Budget:
			c.Dropped = inject.DropBudget
		default:
			c.Picked = true
			picked++
			rec.Spent += c.Chars
		}
		rec.Candidates = append(rec.Candidates, c)
	}
}
