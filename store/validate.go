// This file holds the checks every backend applies before writing, and the digest helpers,
// so that all backends refuse the same inputs with the same errors.

package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// SchemaVersion is the newest store schema this library writes. A store recording a higher
// number is refused with *SchemaVersionError. Schema 2 keeps a run's record, events and
// blobs as content-addressed chunks shared between runs (a backend opening a schema 1 store
// upgrades it in place, and still reads the rows written before). Schema 3 writes a run as a
// delta on the run before it in its conversation and keeps the earlier version of a run row
// written again (the runs after it may be deltas on it).
const SchemaVersion = 3

// maxIDLen bounds run and session ids; longer ids are refused rather than truncated.
const maxIDLen = 256

// Digest returns the lowercase hex SHA-256 of data, the key blobs are stored under.
func Digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// NormalizeDigest accepts a digest as lowercase or uppercase hex, optionally prefixed
// "sha256:", and returns it as lowercase hex. Anything else is an *InvalidError.
func NormalizeDigest(digest string) (string, error) {
	d := strings.TrimPrefix(strings.ToLower(digest), "sha256:")
	if len(d) != sha256.Size*2 {
		return "", &InvalidError{Field: "digest", Reason: fmt.Sprintf("%q is not a SHA-256 hex digest (want 64 hex digits)", digest)}
	}
	if _, err := hex.DecodeString(d); err != nil {
		return "", &InvalidError{Field: "digest", Reason: fmt.Sprintf("%q is not a SHA-256 hex digest", digest)}
	}
	return d, nil
}

func checkID(field, id string, required bool) error {
	switch {
	case id == "" && required:
		return &InvalidError{Field: field, Reason: "empty"}
	case len(id) > maxIDLen:
		return &InvalidError{Field: field, Reason: fmt.Sprintf("longer than %d bytes", maxIDLen)}
	case !utf8.ValidString(id):
		return &InvalidError{Field: field, Reason: "not valid UTF-8"}
	case strings.ContainsRune(id, 0):
		return &InvalidError{Field: field, Reason: "contains a NUL byte"}
	}
	return nil
}

// Validate checks a run before it is written and fills in missing blob digests. It refuses
// an empty or oversized id, a zero StartedAt, an EndedAt before StartedAt, an unknown
// Status, a Record that is not a JSON object, Events that are not a JSON array, a NUL byte
// in the answer, and a blob whose digest does not match its bytes.
func (r *Run) Validate() error {
	if r == nil {
		return &InvalidError{Field: "Run", Reason: "nil"}
	}
	if err := checkID("Run.ID", r.ID, true); err != nil {
		return err
	}
	if err := checkID("Run.SessionID", r.SessionID, false); err != nil {
		return err
	}
	if err := checkID("Run.AgentID", r.AgentID, false); err != nil {
		return err
	}
	if r.StartedAt.IsZero() {
		return &InvalidError{Field: "Run.StartedAt", Reason: "zero"}
	}
	if !storable(r.StartedAt) {
		return &InvalidError{Field: "Run.StartedAt", Reason: "outside the years 1678-2261 a store can keep to the nanosecond"}
	}
	if !r.EndedAt.IsZero() && !storable(r.EndedAt) {
		return &InvalidError{Field: "Run.EndedAt", Reason: "outside the years 1678-2261 a store can keep to the nanosecond"}
	}
	if !r.EndedAt.IsZero() && r.EndedAt.Before(r.StartedAt) {
		return &InvalidError{Field: "Run.EndedAt", Reason: "before StartedAt"}
	}
	if !r.Status.valid() {
		return &InvalidError{Field: "Run.Status", Reason: fmt.Sprintf("%q is not one of complete, paused, failed, incomplete", r.Status)}
	}
	if !utf8.ValidString(r.Answer) || strings.ContainsRune(r.Answer, 0) {
		return &InvalidError{Field: "Run.Answer", Reason: "not valid UTF-8 text (or contains a NUL byte)"}
	}
	if err := checkJSON("Run.Record", r.Record, '{', true); err != nil {
		return err
	}
	if err := checkJSON("Run.Events", r.Events, '[', false); err != nil {
		return err
	}
	for i := range r.Blobs {
		b := &r.Blobs[i]
		sum := Digest(b.Data)
		if b.SHA256 == "" {
			b.SHA256 = sum
			continue
		}
		d, err := NormalizeDigest(b.SHA256)
		if err != nil {
			return &InvalidError{Field: fmt.Sprintf("Run.Blobs[%d].SHA256", i), Reason: err.(*InvalidError).Reason}
		}
		if d != sum {
			return &InvalidError{Field: fmt.Sprintf("Run.Blobs[%d].SHA256", i), Reason: fmt.Sprintf("%s does not match the blob's bytes (their SHA-256 is %s)", d, sum)}
		}
		b.SHA256 = d
	}
	return nil
}

// Validate checks a checkpoint before it is written: a session id is required and Data must
// be a JSON value.
func (c *Checkpoint) Validate() error {
	if c == nil {
		return &InvalidError{Field: "Checkpoint", Reason: "nil"}
	}
	if err := checkID("Checkpoint.SessionID", c.SessionID, true); err != nil {
		return err
	}
	if err := checkID("Checkpoint.RunID", c.RunID, false); err != nil {
		return err
	}
	return checkJSON("Checkpoint.Data", c.Data, 0, true)
}

// checkJSON refuses data that is not one JSON value whose first byte is want (0: any).
func checkJSON(field string, data json.RawMessage, want byte, required bool) error {
	if len(data) == 0 {
		if required {
			return &InvalidError{Field: field, Reason: "empty"}
		}
		return nil
	}
	if !json.Valid(data) {
		return &InvalidError{Field: field, Reason: "not valid JSON"}
	}
	if want != 0 {
		first := bytes.TrimLeft(data, " \t\r\n")
		if len(first) == 0 || first[0] != want {
			kind := map[byte]string{'{': "object", '[': "array"}[want]
			return &InvalidError{Field: field, Reason: "not a JSON " + kind}
		}
	}
	return nil
}

// Validate refuses a negative Limit, an unknown Status and an Until that is not after Since.
func (f Filter) Validate() error {
	if f.Limit < 0 {
		return &InvalidError{Field: "Filter.Limit", Reason: fmt.Sprintf("%d is negative", f.Limit)}
	}
	if f.Status != "" && !f.Status.valid() {
		return &InvalidError{Field: "Filter.Status", Reason: fmt.Sprintf("%q is not one of complete, paused, failed, incomplete", f.Status)}
	}
	if !f.Since.IsZero() && !f.Until.IsZero() && !f.Until.After(f.Since) {
		return &InvalidError{Field: "Filter.Until", Reason: "not after Since"}
	}
	return nil
}

// storable reports whether t fits in int64 Unix nanoseconds, the form backends keep.
func storable(t time.Time) bool {
	y := t.UTC().Year()
	return y > 1678 && y < 2262
}
