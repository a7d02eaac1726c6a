// This file holds the offline verifier: it walks segments in order, checks every link and
// hash, and names the first record where the chain breaks.

package audit

import (
	"crypto/ed25519"
	"fmt"
)

// Reason names why verification failed. The words are a wire fact shared with other
// implementations; Malformed is this library's addition for files that do not decode.
type Reason string

// The verification failure reasons (Verify says the order its checks run in).
const (
	UnsupportedFormat Reason = "unsupported-format"
	CountMismatch     Reason = "count-mismatch"
	SegmentGap        Reason = "segment-gap"
	HeadTruncated     Reason = "head-truncated"
	SeqMismatch       Reason = "seq-mismatch"
	PrevHashMismatch  Reason = "prev-hash-mismatch"
	HashMismatch      Reason = "hash-mismatch"
	FinalHashMismatch Reason = "final-hash-mismatch"
	SignatureInvalid  Reason = "signature-invalid"
	// Malformed: a segment file that is not readable JSON of the segment shape, or no
	// segments at all.
	Malformed Reason = "malformed"
)

// SignatureState summarises the signatures of the verified segments.
type SignatureState string

// The signature states.
const (
	// SignatureValid: every segment is signed and every signature checked out.
	SignatureValid SignatureState = "valid"
	// SignatureStateInvalid: a signature failed (the result is not valid). (SignatureInvalid
	// is the Reason of the same failure.)
	SignatureStateInvalid SignatureState = "invalid"
	// SignatureAbsent: at least one segment carries no signature.
	SignatureAbsent SignatureState = "absent"
	// SignatureUnverified: segments are signed but no public key was given.
	SignatureUnverified SignatureState = "unverified"
)

// VerifyOptions configure Verify.
type VerifyOptions struct {
	// PublicKey checks segment signatures when set.
	PublicKey ed25519.PublicKey
	// AllowPartial accepts a first segment that does not start the chain (seq 0 with a
	// genesis record), for verifying a later piece on its own. The head guard still
	// requires firstSeq 0 and a zero chainHead to go together.
	AllowPartial bool
	// RequireSignature fails a segment without a signature (reason signature-invalid).
	RequireSignature bool
}

// Result is the verifier's verdict. Valid is true only when every check passed.
type Result struct {
	// Valid is true only when every check passed.
	Valid bool `json:"valid"`
	// RecordsChecked counts records whose seq, link and hash were confirmed.
	RecordsChecked int64 `json:"recordsChecked"`
	// BrokenAt is the seq of the first failing record, or the seq that was expected where a
	// record is missing or its seq was altered. Nil when the failure is not a record's.
	BrokenAt *int64 `json:"brokenAt,omitempty"`
	// Reason names the failed check.
	Reason Reason `json:"reason,omitempty"`
	// Segment is the index of the segment where verification failed.
	Segment *int `json:"segment,omitempty"`
	// Signature summarises the signatures.
	Signature SignatureState `json:"signature"`
	// Detail explains the failure for a person.
	Detail string `json:"detail,omitempty"`
	// Note qualifies a valid verdict: set when a segment is in the /1 format
	// (agentfootprint.audit/1), whose header is only partly covered.
	Note string `json:"note,omitempty"`
}

// String renders the verdict on one line: "valid: N records, signature S", or "INVALID
// (reason) in segment i at record n: detail".
func (r Result) String() string {
	if r.Valid {
		s := fmt.Sprintf("valid: %d records, signature %s", r.RecordsChecked, r.Signature)
		if r.Note != "" {
			s += " (note: " + r.Note + ")"
		}
		return s
	}
	s := fmt.Sprintf("INVALID (%s)", r.Reason)
	if r.Segment != nil {
		s += fmt.Sprintf(" in segment %d", *r.Segment)
	}
	if r.BrokenAt != nil {
		s += fmt.Sprintf(" at record %d", *r.BrokenAt)
	}
	if r.Detail != "" {
		s += ": " + r.Detail
	}
	return s
}

// VerifyFiles decodes each segment file with ReadSegment and verifies them together; a file
// that does not decode makes the result invalid with reason malformed.
func VerifyFiles(opts VerifyOptions, files ...[]byte) Result {
	segs := make([]*Segment, len(files))
	for i, data := range files {
		seg, err := ReadSegment(data)
		if err != nil {
			i := i
			return Result{Reason: Malformed, Segment: &i, Signature: SignatureAbsent, Detail: err.Error()}
		}
		segs[i] = seg
	}
	return Verify(segs, opts)
}

// Verify checks segments, in the order given, as one chain. It is pure and offline. First
// the headers must link (each chainHead the previous finalHash, each firstSeq the previous
// firstSeq + recordCount), so that swapped or missing segments are reported as a gap. Then per
// segment: supported format; continuity with the previous segment; the head guard; every
// record's seq, prevHash and hash; recordCount equals the records held (checked after the
// records, so a record deleted from the middle is named, not the end); finalHash (in format
// /2 the seal of the whole header and the last record's hash); the signature when present
// and a key is given. An agentfootprint.audit/1 segment is verified by the /1 rules and sets Note.
func Verify(segments []*Segment, opts VerifyOptions) Result {
	res := Result{Signature: SignatureAbsent}
	if len(segments) == 0 {
		res.Reason, res.Detail = Malformed, "no segments"
		return res
	}
	fail := func(i int, reason Reason, brokenAt *int64, format string, args ...any) Result {
		res.Valid = false
		res.Reason, res.Segment, res.BrokenAt = reason, &i, brokenAt
		res.Detail = fmt.Sprintf(format, args...)
		return res
	}
	at := func(n int64) *int64 { return &n }
	// Continuity first, from the headers alone: segments handed over out of order or with
	// one missing are named as a gap, not as a truncated head or a broken record.
	for i := 1; i < len(segments); i++ {
		prev, cur := segments[i-1], segments[i]
		if prev == nil || cur == nil {
			break // reported as malformed below
		}
		next := prev.Header.FirstSeq + prev.Header.RecordCount
		if cur.Header.ChainHead != prev.FinalHash || cur.Header.FirstSeq != next {
			return fail(i, SegmentGap, at(next),
				"segment starts at seq %d after chain head %.12s…, the previous segment ends before seq %d with %.12s…",
				cur.Header.FirstSeq, cur.Header.ChainHead, next, prev.FinalHash)
		}
	}
	signed, unsigned, unverified := 0, 0, 0
	var prevFinal string
	var nextSeq int64
	buf := make([]byte, 0, 1024)
	for i, seg := range segments {
		if seg == nil {
			return fail(i, Malformed, nil, "segment is nil")
		}
		h := seg.Header
		// 1. format
		if (h.Format != Format && h.Format != legacyFormat) || h.HashAlgorithm != recordHashAlg || h.Canonicalization != canonicalScheme {
			return fail(i, UnsupportedFormat, nil, "format %q, hash %q, canonicalization %q; this verifier reads %s (or %s), %s, %s",
				h.Format, h.HashAlgorithm, h.Canonicalization, Format, legacyFormat, recordHashAlg, canonicalScheme)
		}
		if h.Format == legacyFormat {
			res.Note = legacyNote
		}
		// 2. count: reported after the record walk, so that a record deleted from the
		// middle is named where it went missing rather than at the end.
		countOK := h.RecordCount == int64(len(seg.Records))
		// 3. continuity
		if i > 0 && (h.ChainHead != prevFinal || h.FirstSeq != nextSeq) {
			return fail(i, SegmentGap, at(nextSeq),
				"segment starts at seq %d after chain head %.12s…, the previous segment ended before seq %d with %.12s…",
				h.FirstSeq, h.ChainHead, nextSeq, prevFinal)
		}
		// 4. head guard
		if (h.FirstSeq == 0) != (h.ChainHead == zeroHash) {
			return fail(i, HeadTruncated, at(0), "firstSeq %d with chain head %.12s…: only seq 0 follows the zero hash", h.FirstSeq, h.ChainHead)
		}
		if i == 0 && !opts.AllowPartial {
			if h.FirstSeq != 0 {
				return fail(i, HeadTruncated, at(0), "the first segment starts at seq %d; records 0 to %d are missing", h.FirstSeq, h.FirstSeq-1)
			}
			if len(seg.Records) == 0 || seg.Records[0].eventType() != GenesisType {
				return fail(i, HeadTruncated, at(0), "the chain does not open with an %s record", GenesisType)
			}
		}
		// 5. records
		prev := h.ChainHead
		for k, r := range seg.Records {
			want := h.FirstSeq + int64(k)
			if seq, ok := r.seq(); !ok || seq != want {
				return fail(i, SeqMismatch, at(want), "record %d of the segment has seq %v, expected %d", k, r["seq"], want)
			}
			if r.prevHash() != prev {
				return fail(i, PrevHashMismatch, at(want), "prevHash does not link to the record before")
			}
			got, grown, err := r.computeHash(buf)
			buf = grown
			if err != nil {
				return fail(i, HashMismatch, at(want), "record cannot be canonicalized: %v", err)
			}
			if got != r.hash() {
				return fail(i, HashMismatch, at(want), "stored hash %.12s…, content hashes to %.12s…", r.hash(), got)
			}
			prev = got
			res.RecordsChecked++
		}
		if !countOK {
			return fail(i, CountMismatch, at(h.FirstSeq+int64(len(seg.Records))),
				"header says %d records, the segment holds %d", h.RecordCount, len(seg.Records))
		}
		// 6. final hash: the seal of the header and the last record's hash (/2), or the last
		// record's hash itself (/1).
		if h.Format != legacyFormat {
			want, err := seal(h, prev)
			if err != nil {
				return fail(i, FinalHashMismatch, nil, "header cannot be canonicalized: %v", err)
			}
			if seg.FinalHash != want {
				var last *int64
				if n := len(seg.Records); n > 0 {
					last = at(h.FirstSeq + int64(n) - 1)
				}
				return fail(i, FinalHashMismatch, last, "finalHash %.12s… does not seal this header and the last record's hash (%.12s…): the header, the last record or finalHash was changed", seg.FinalHash, want)
			}
			prev = want
		} else if seg.FinalHash != prev {
			var last *int64
			if n := len(seg.Records); n > 0 {
				last = at(h.FirstSeq + int64(n) - 1)
			}
			return fail(i, FinalHashMismatch, last, "finalHash %.12s… is not the last record's hash %.12s…", seg.FinalHash, prev)
		}
		// 7. signature
		switch {
		case h.Signature == nil:
			unsigned++
			if opts.RequireSignature {
				res.Signature = SignatureStateInvalid
				return fail(i, SignatureInvalid, nil, "the segment carries no signature")
			}
		case opts.PublicKey == nil:
			unverified++
		default:
			if ok, why := seg.checkSignature(opts.PublicKey); !ok {
				res.Signature = SignatureStateInvalid
				return fail(i, SignatureInvalid, nil, "%s", why)
			}
			signed++
		}
		prevFinal, nextSeq = seg.FinalHash, h.FirstSeq+h.RecordCount
	}
	switch {
	case unsigned > 0:
		res.Signature = SignatureAbsent
	case unverified > 0:
		res.Signature = SignatureUnverified
	default:
		res.Signature = SignatureValid
	}
	res.Valid = true
	return res
}
