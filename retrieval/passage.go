// Passages, scores and the embedding seam (Embedder).

package retrieval

import (
	"context"
	"fmt"
	"unicode/utf16"

	"github.com/agentfootprint/agentfootprint-go/internal/idchars"
)

// Passage is one retrievable piece of text. ID names it in the record and
// becomes its unit's id; Source says where it came from (a file, a URL, a
// run); Metadata is kept with it and returned by searches.
type Passage struct {
	ID       string            `json:"id"`
	Source   string            `json:"source,omitempty"`
	Text     string            `json:"text"`
	Metadata map[string]string `json:"metadata,omitempty"`
}

// Scored is a passage with its cosine similarity to a query, in [-1, 1].
type Scored struct {
	Passage
	Score float64 `json:"score"`
}

// Embedder turns texts into vectors, one per text in order, all of the same
// length.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// Caps on what a passage may hold.
const (
	// maxText bounds a passage's text in bytes.
	maxText = 64 << 10
	// maxMetadata bounds the number of metadata pairs.
	maxMetadata = 64
)

// What a passage id or corpus name may look like: the ids a context unit carries.
var (
	idFirst = idchars.Of(idchars.Lower, idchars.Digits)
	idRest  = idchars.Of(idchars.Lower, idchars.Digits, "._-")
)

// maxID is the longest passage id or corpus name.
const maxID = 64

// Validate refuses a passage whose id a context unit cannot carry, an empty
// text or one over 64 KiB, or more than 64 metadata pairs, naming the field.
func (p Passage) Validate() error {
	switch {
	case !idchars.Valid(p.ID, &idFirst, &idRest, maxID):
		return fmt.Errorf("retrieval: passage id %q: must be lower-case letters, digits, '.', '_' or '-', starting with a letter or digit, at most 64", p.ID)
	case p.Text == "":
		return fmt.Errorf("retrieval: passage %q: text is empty", p.ID)
	case len(p.Text) > maxText:
		return fmt.Errorf("retrieval: passage %q: text is %d bytes, more than %d", p.ID, len(p.Text), maxText)
	case len(p.Metadata) > maxMetadata:
		return fmt.Errorf("retrieval: passage %q: %d metadata pairs, more than %d", p.ID, len(p.Metadata), maxMetadata)
	}
	return nil
}

// chars is the text's length in UTF-16 code units, the measure the record
// uses for every unit.
func chars(s string) int { return len(utf16.Encode([]rune(s))) }
