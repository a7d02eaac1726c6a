package retrieval_test

import (
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/retrieval"
)

// TestIDs checks which passage ids and corpus names are accepted: what a context unit id may
// be, a lower-case letter or digit and then lower-case letters, digits, '.', '_' or '-', at
// most 64 bytes.
func TestIDs(t *testing.T) {
	idx, err := retrieval.NewMemoryIndex(16)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		id string
		ok bool
	}{
		{"runbook", true},
		{"deploy-2.rollback_v1", true},
		{"9lives", true},
		{strings.Repeat("a", 64), true},
		{strings.Repeat("a", 65), false},
		{"", false},
		{"Runbook", false},
		{"-runbook", false},
		{".runbook", false},
		{"run book", false},
		{"run/book", false},
		{"runbook\n", false},
		{"caf\u00e9", false},
	} {
		err := retrieval.Passage{ID: c.id, Text: "Roll back with deployctl."}.Validate()
		if (err == nil) != c.ok {
			t.Errorf("passage id %q: Validate() = %v, want accepted %v", c.id, err, c.ok)
		}
		_, err = retrieval.NewCorpus(c.id, &retrieval.HashEmbedder{Dims: 16}, idx)
		if (err == nil) != c.ok {
			t.Errorf("corpus name %q: NewCorpus = %v, want accepted %v", c.id, err, c.ok)
		}
	}
}
