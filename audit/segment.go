// This file holds the segment: its Go form, its file form (one record per line) and the
// decoder that reads a file back for verification.

package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/agentfootprint/agentfootprint-go/internal/jcs"
)

// Segment is a drained piece of the chain: {header, records, finalHash}.
type Segment struct {
	Header    Header
	Records   []Record
	FinalHash string
}

// Header describes a segment and links it to the previous one.
type Header struct {
	// Format is the segment format id, Format.
	Format string `json:"format"`
	// HashAlgorithm is the record hash, "sha-256".
	HashAlgorithm string `json:"hashAlgorithm"`
	// Canonicalization is the canonical JSON scheme, "rfc8785".
	Canonicalization string `json:"canonicalization"`
	// ChainHead is the previous segment's finalHash (64 zeros for the first segment).
	ChainHead string `json:"chainHead"`
	// FirstSeq is the seq of the segment's first record.
	FirstSeq int64 `json:"firstSeq"`
	// RecordCount is the number of records in the segment.
	RecordCount int64 `json:"recordCount"`
	// ExportedAt is when the segment was drained (RFC 3339, UTC). Sealed into finalHash and
	// signed (not in the /1 format).
	ExportedAt string `json:"exportedAt"`
	// Library names the exporter. Sealed into finalHash and signed (not in the /1 format).
	Library Library `json:"library"`
	// Signature is the optional Ed25519 signature.
	Signature *Signature `json:"signature,omitempty"`
}

// Record is one chained record as a JSON object: seq, timestamp, eventType, payload, meta,
// prevHash and hash. It is a map so that the verifier hashes exactly what a file holds,
// extra members included; read a member by its name (r["eventType"].(string)). A number read
// by ReadSegment is a json.Number.
type Record map[string]any

// seq returns the record's seq when it is an integer.
func (r Record) seq() (int64, bool) {
	switch v := r["seq"].(type) {
	case int64:
		return v, true
	case json.Number:
		n, err := v.Int64()
		return n, err == nil
	}
	return 0, false
}

// eventType returns the record's eventType ("" when missing or not a string).
func (r Record) eventType() string { s, _ := r["eventType"].(string); return s }

// hash returns the record's stored hash ("" when missing or not a string).
func (r Record) hash() string { s, _ := r["hash"].(string); return s }

// prevHash returns the record's stored prevHash ("" when missing or not a string).
func (r Record) prevHash() string { s, _ := r["prevHash"].(string); return s }

// MarshalJSON writes the segment with the header first and one canonical record per line,
// so files diff and grep well. Whitespace outside records is not hashed.
func (s *Segment) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	if _, err := s.WriteTo(&buf); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// WriteTo writes the segment's file form (see MarshalJSON) followed by a newline.
func (s *Segment) WriteTo(w io.Writer) (int64, error) {
	// No HTML escaping: a header member written as \u003c could be rewritten as \u003C
	// without changing its value.
	var hb bytes.Buffer
	enc := json.NewEncoder(&hb)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s.Header); err != nil {
		return 0, err
	}
	header := bytes.TrimSuffix(hb.Bytes(), []byte("\n"))
	out := make([]byte, 0, 256*len(s.Records)+512)
	out = append(out, `{"header":`...)
	out = append(out, header...)
	out = append(out, ",\n\"records\":["...)
	var err error
	for i, r := range s.Records {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, '\n')
		if out, err = jcs.Append(out, map[string]any(r)); err != nil {
			return 0, fmt.Errorf("audit: record %d: %w", i, err)
		}
	}
	out = append(out, "\n],\n\"finalHash\":"...)
	out, _ = jcs.Append(out, s.FinalHash)
	out = append(out, "}\n"...)
	n, err := w.Write(out)
	return int64(n), err
}

// decodeError says why a segment file could not be read: the field at fault and the cause.
type decodeError struct {
	// Field is where the problem is, e.g. "header.firstSeq" or "records[3]".
	Field string
	// Err is the cause.
	Err error
}

// Error names the field at fault and the cause.
func (e *decodeError) Error() string {
	if e.Field == "" {
		return "audit: reading segment: " + e.Err.Error()
	}
	return fmt.Sprintf("audit: reading segment: %s: %v", e.Field, e.Err)
}

// Unwrap returns the cause.
func (e *decodeError) Unwrap() error { return e.Err }

// ReadSegment decodes a segment file. It reads strictly (duplicate member names, invalid
// UTF-8 and trailing data are refused) and checks only the shape: header fields of the
// right types, records that are objects. Whether the chain holds is Verify's question, so a
// record with a tampered seq or hash decodes and is then reported by Verify.
func ReadSegment(data []byte) (*Segment, error) {
	v, err := jcs.Parse(data)
	if err != nil {
		return nil, &decodeError{Err: err}
	}
	top, ok := v.(map[string]any)
	if !ok {
		return nil, &decodeError{Err: errors.New("not a JSON object")}
	}
	hm, ok := top["header"].(map[string]any)
	if !ok {
		return nil, &decodeError{Field: "header", Err: errors.New("missing or not an object")}
	}
	seg := &Segment{}
	h := &seg.Header
	fields := []struct {
		name string
		dst  *string
	}{
		{"format", &h.Format}, {"hashAlgorithm", &h.HashAlgorithm}, {"canonicalization", &h.Canonicalization},
		{"chainHead", &h.ChainHead}, {"exportedAt", &h.ExportedAt},
	}
	for _, f := range fields {
		if *f.dst, err = getString(hm, f.name, true); err != nil {
			return nil, &decodeError{Field: "header." + f.name, Err: err}
		}
	}
	for _, f := range []struct {
		name string
		dst  *int64
	}{{"firstSeq", &h.FirstSeq}, {"recordCount", &h.RecordCount}} {
		if *f.dst, err = getInt(hm, f.name); err != nil {
			return nil, &decodeError{Field: "header." + f.name, Err: err}
		}
	}
	if h.Format == legacyFormat {
		if lib, ok := hm["library"].(map[string]any); ok {
			h.Library.Name, _ = lib["name"].(string)
			h.Library.Version, _ = lib["version"].(string)
		}
	} else if err := readSealedHeader(hm, h); err != nil {
		return nil, err
	}
	if sv, present := hm["signature"]; present {
		sm, ok := sv.(map[string]any)
		if !ok {
			return nil, &decodeError{Field: "header.signature", Err: errors.New("not an object")}
		}
		sig := &Signature{}
		for _, f := range []struct {
			name string
			dst  *string
		}{{"alg", &sig.Alg}, {"keyId", &sig.KeyID}, {"value", &sig.Value}} {
			if *f.dst, err = getString(sm, f.name, true); err != nil {
				return nil, &decodeError{Field: "header.signature." + f.name, Err: err}
			}
		}
		h.Signature = sig
	}
	list, ok := top["records"].([]any)
	if !ok {
		return nil, &decodeError{Field: "records", Err: errors.New("missing or not an array")}
	}
	seg.Records = make([]Record, len(list))
	for i, item := range list {
		m, ok := item.(map[string]any)
		if !ok {
			return nil, &decodeError{Field: fmt.Sprintf("records[%d]", i), Err: errors.New("not an object")}
		}
		seg.Records[i] = m
	}
	if seg.FinalHash, err = getString(top, "finalHash", true); err != nil {
		return nil, &decodeError{Field: "finalHash", Err: err}
	}
	return seg, nil
}

// headerMembers are the members a sealed (format /2) header may hold.
var headerMembers = map[string]bool{"format": true, "hashAlgorithm": true, "canonicalization": true, "chainHead": true,
	"firstSeq": true, "recordCount": true, "exportedAt": true, "library": true, "signature": true}

// readSealedHeader reads the library of a sealed header strictly and refuses members the
// format does not have: every byte of such a header is covered by the seal, so nothing in it
// may be read loosely or ignored.
func readSealedHeader(hm map[string]any, h *Header) error {
	for k := range hm {
		if !headerMembers[k] {
			return &decodeError{Field: "header." + k, Err: errors.New("is not a member of a " + Format + " header")}
		}
	}
	lib, ok := hm["library"].(map[string]any)
	if !ok {
		return &decodeError{Field: "header.library", Err: errors.New("missing or not an object")}
	}
	for k := range lib {
		if k != "name" && k != "version" {
			return &decodeError{Field: "header.library." + k, Err: errors.New("is not a member of the library object")}
		}
	}
	var err error
	if h.Library.Name, err = getString(lib, "name", true); err != nil {
		return &decodeError{Field: "header.library.name", Err: err}
	}
	if h.Library.Version, err = getString(lib, "version", true); err != nil {
		return &decodeError{Field: "header.library.version", Err: err}
	}
	return nil
}

func getString(m map[string]any, name string, required bool) (string, error) {
	v, present := m[name]
	if !present {
		if required {
			return "", errors.New("missing")
		}
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", errors.New("not a string")
	}
	return s, nil
}

func getInt(m map[string]any, name string) (int64, error) {
	v, present := m[name]
	if !present {
		return 0, errors.New("missing")
	}
	n, ok := v.(json.Number)
	if !ok {
		return 0, errors.New("not a number")
	}
	i, err := n.Int64()
	if err != nil || i < 0 {
		return 0, fmt.Errorf("%s is not a non-negative integer", n)
	}
	return i, nil
}
