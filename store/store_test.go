// This file tests the backend-independent checks: digests, run and filter validation, and
// the error types.

package store

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestNormalizeDigest(t *testing.T) {
	d := Digest([]byte("abc"))
	if d != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Fatalf("Digest(abc) = %s", d)
	}
	for _, in := range []string{d, strings.ToUpper(d), "sha256:" + d} {
		if got, err := NormalizeDigest(in); err != nil || got != d {
			t.Errorf("NormalizeDigest(%s) = %s, %v", in, got, err)
		}
	}
	for _, in := range []string{"", "abc", d[:63], d + "0", strings.Replace(d, "b", "g", 1), "md5:" + d} {
		if _, err := NormalizeDigest(in); err == nil {
			t.Errorf("NormalizeDigest(%q) accepted it", in)
		}
	}
}

func TestValidateFillsDigests(t *testing.T) {
	r := &Run{
		RunInfo: RunInfo{ID: "r", StartedAt: time.Unix(1, 0), Status: StatusComplete},
		Record:  json.RawMessage("  \n{}"),
		Events:  json.RawMessage("\t[]"),
		Blobs:   []Blob{{Data: []byte("abc")}, {SHA256: "SHA256:" + strings.ToUpper(Digest([]byte("x"))), Data: []byte("x")}},
	}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	if r.Blobs[0].SHA256 != Digest([]byte("abc")) || r.Blobs[1].SHA256 != Digest([]byte("x")) {
		t.Errorf("digests = %s, %s", r.Blobs[0].SHA256, r.Blobs[1].SHA256)
	}
}

func TestErrors(t *testing.T) {
	var err error = &NotFoundError{Kind: "run", ID: "r-9"}
	if !errors.Is(err, ErrNotFound) || err.Error() != `store: run "r-9" not found` {
		t.Errorf("NotFoundError = %v", err)
	}
	err = &SchemaVersionError{Where: "/tmp/runs.db", Found: 3, Supported: 1}
	if !strings.Contains(err.Error(), "/tmp/runs.db has schema version 3") {
		t.Errorf("SchemaVersionError = %v", err)
	}
	if got := (&InvalidError{Field: "Run.ID", Reason: "empty"}).Error(); got != "store: Run.ID: empty" {
		t.Errorf("InvalidError = %q", got)
	}
	if Status("done").valid() || !StatusPaused.valid() {
		t.Error("Status.Valid is wrong")
	}
}
