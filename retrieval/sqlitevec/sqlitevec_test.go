// The index conformance suite and the memory walk-back against the SQLite
// run store, both in one file.

package sqlitevec_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/retrieval"
	"github.com/agentfootprint/agentfootprint-go/retrieval/indextest"
	"github.com/agentfootprint/agentfootprint-go/retrieval/sqlitevec"
	"github.com/agentfootprint/agentfootprint-go/store/sqlite"
)

func open(t *testing.T, path, corpus string, dims int) retrieval.Index {
	t.Helper()
	idx, err := sqlitevec.Open(context.Background(), path, corpus, dims)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { idx.Close() })
	return idx
}

func TestConformance(t *testing.T) {
	path := filepath.Join(t.TempDir(), "passages.db")
	indextest.Run(t, func(t *testing.T, corpus string, dims int) retrieval.Index {
		return open(t, path, corpus, dims)
	})
}

func TestMemoryWalkBackInTheRunStoreFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.db")
	st, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	indextest.MemoryWalkBack(t, open(t, path, "support-memory", 64), st)
}

func TestRefusesBadArguments(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	for name, args := range map[string]struct {
		path, corpus string
		dims         int
	}{
		"empty path": {"", "c", 3}, "options": {filepath.Join(dir, "x.db?mode=ro"), "c", 3},
		"corpus": {filepath.Join(dir, "x.db"), "", 3}, "dims": {filepath.Join(dir, "x.db"), "c", 0},
	} {
		if idx, err := sqlitevec.Open(ctx, args.path, args.corpus, args.dims); err == nil {
			idx.Close()
			t.Errorf("%s: Open accepted %+v", name, args)
		}
	}
}
