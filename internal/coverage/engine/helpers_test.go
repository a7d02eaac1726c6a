package engine

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// j decodes a JSON literal in order; a test helper for data-door inputs.
func j(t testing.TB, s string) any {
	t.Helper()
	v, err := DecodeJSON([]byte(s))
	if err != nil {
		t.Fatalf("bad test JSON %s: %v", s, err)
	}
	return v
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// refusedAt asserts err is a *Refusal at field, with the wire prefix.
func refusedAt(t testing.TB, err error, field string) *Refusal {
	t.Helper()
	var r *Refusal
	if !errors.As(err, &r) {
		t.Fatalf("want a refusal at %q, got %v", field, err)
	}
	if r.Field != field {
		t.Errorf("refusal field = %q, want %q (%s)", r.Field, field, r.Message)
	}
	if got := err.Error(); len(got) < len(RefusedPrefix) || got[:len(RefusedPrefix)] != RefusedPrefix {
		t.Errorf("refusal text %q lacks the prefix", got)
	}
	return r
}

// golden compares got with testdata/name, rewriting it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from golden:\n got: %s\nwant: %s", name, got, want)
	}
}

const (
	qJSON = `{"from":"2026-09-26T09:00:00Z","to":"2026-09-26T10:00:00Z"}`
	hJSON = `{"from":"2026-08-27T02:00:00Z","to":"2026-09-26T02:00:00Z"}`
)

var (
	pQ = Span{"2026-09-26T09:00:00Z", "2026-09-26T10:00:00Z"}
	pH = Span{"2026-08-27T02:00:00Z", "2026-09-26T02:00:00Z"}
)

func span(from, to string) Held { return HeldSpan(from, to) }

func at(hm string) string { return "2026-09-26T" + hm + ":00Z" }
