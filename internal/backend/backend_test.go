// This file checks that Open picks the backend the target names.

package backend

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOpenPicksBackend(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	t.Setenv("XDG_DATA_HOME", dir)

	s, name, err := Open(ctx, "")
	if err != nil {
		t.Fatalf("Open(\"\"): %v", err)
	}
	if _, err := os.Stat(name); err != nil || name != filepath.Join(dir, "agentfootprint", "runs.db") {
		t.Errorf("Open(\"\") = %T %q, want the default SQLite file", s, name)
	}
	s.Close()

	path := filepath.Join(dir, "explicit.db")
	s, name, err = Open(ctx, path)
	if err != nil {
		t.Fatalf("Open(path): %v", err)
	}
	if _, err := os.Stat(name); err != nil || name != path {
		t.Errorf("Open(path) = %T %q", s, name)
	}
	s.Close()

	dsn := os.Getenv("AGENTFOOTPRINT_TEST_POSTGRES")
	if dsn == "" {
		t.Skip("AGENTFOOTPRINT_TEST_POSTGRES is not set: the PostgreSQL half is skipped")
	}
	s, name, err = Open(ctx, dsn)
	if err != nil {
		t.Fatalf("Open(postgres): %v", err)
	}
	defer s.Close()
	if fmt.Sprint(s) != name || !strings.HasPrefix(name, "postgres ") || strings.Contains(name, "://") {
		t.Errorf("Open(dsn) = %T %q", s, name)
	}
}

func TestOpenExistingCreatesNothing(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	t.Setenv("XDG_DATA_HOME", dir)
	for _, target := range []string{"", filepath.Join(dir, "none.db")} {
		_, _, err := OpenExisting(ctx, target)
		var miss *MissingError
		if !errors.As(err, &miss) || !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("OpenExisting(%q) = %v, want a *MissingError", target, err)
		}
		if _, err := os.Stat(miss.Path); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("OpenExisting(%q) created %s", target, miss.Path)
		}
	}
	path := filepath.Join(dir, "made.db")
	s, _, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, name, err := OpenExisting(ctx, path)
	if err != nil || name != path {
		t.Fatalf("OpenExisting(existing) = %q, %v", name, err)
	}
	s.Close()
}
