// The offline embedder: a hashed bag of words, deterministic and free.

package retrieval

import (
	"context"
	"fmt"
	"hash/fnv"
	"strings"
	"unicode"
)

// HashEmbedder maps a text to counts of its lower-cased words (less a
// short list of English words too common to tell passages apart) hashed into
// Dims buckets (FNV-1a, with a sign bit from the hash so collisions cancel
// rather than pile up). It needs no model and no network and gives the same
// vector everywhere, which is what the demo and tests need; it matches
// words, not meanings. A text with no word maps to a vector with one fixed
// bucket set, so every text has a direction.
type HashEmbedder struct {
	Dims int
}

// Embed returns one vector per text.
func (h *HashEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if h.Dims < 1 {
		return nil, fmt.Errorf("retrieval: hash embedder: Dims is %d; give at least 1", h.Dims)
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out[i] = h.one(t)
	}
	return out, nil
}

func (h *HashEmbedder) one(text string) []float32 {
	v := make([]float32, h.Dims)
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	kept := 0
	for _, w := range words {
		if stopWords[w] {
			continue
		}
		kept++
		f := fnv.New64a()
		f.Write([]byte(w))
		s := f.Sum64()
		b := int(s % uint64(h.Dims))
		if s>>63 == 1 {
			v[b]--
		} else {
			v[b]++
		}
	}
	if kept == 0 {
		v[0] = 1
	}
	for _, x := range v {
		if x != 0 {
			return v
		}
	}
	v[0] = 1 // every word cancelled out
	return v
}

// stopWords are skipped: they appear in nearly every passage and would
// make unrelated texts look alike.
var stopWords = map[string]bool{
	"a": true, "an": true, "and": true, "are": true, "as": true, "at": true, "be": true, "by": true,
	"do": true, "does": true, "for": true, "from": true, "how": true, "i": true, "in": true, "is": true,
	"it": true, "my": true, "of": true, "on": true, "or": true, "the": true, "to": true, "what": true,
	"which": true, "with": true,
}
