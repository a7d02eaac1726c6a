// This file holds the seal that binds a whole segment header into the hash chain (format
// agentfootprint.audit/2): the segment's finalHash is the SHA-256 of the header (all of it
// but the signature) together with the last record's hash, and the next segment's records
// chain from that seal. Format /1 left exportedAt and library outside both the chain and the
// signature; it is still verified, with a note saying so.

package audit

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/agentfootprint/agentfootprint-go/internal/jcs"
)

// legacyFormat is the earlier segment format. Its finalHash is the last record's hash and its
// signature covers only part of the header, so its exportedAt and library can be changed
// without breaking either; Verify still accepts it and says so in Result.Note.
const legacyFormat = "agentfootprint.audit/1"

// legacyNote is the Result.Note of a verification that read a legacyFormat segment.
const legacyNote = "format " + legacyFormat + ": the header's exportedAt and library are not covered by the hash chain or the signature; re-export the run to bind them"

// headerFields returns every member of h but the signature, as canonical JSON reads it.
func headerFields(h Header) map[string]any {
	return map[string]any{
		"format":           h.Format,
		"hashAlgorithm":    h.HashAlgorithm,
		"canonicalization": h.Canonicalization,
		"chainHead":        h.ChainHead,
		"firstSeq":         h.FirstSeq,
		"recordCount":      h.RecordCount,
		"exportedAt":       h.ExportedAt,
		"library":          map[string]any{"name": h.Library.Name, "version": h.Library.Version},
	}
}

// seal returns the finalHash of a segment with header h whose last record hashes to last
// (the chain head when the segment holds no record): the lowercase hex SHA-256 of the
// canonical JSON of {header fields…, "lastHash": last}.
func seal(h Header, last string) (string, error) {
	m := headerFields(h)
	m["lastHash"] = last
	b, err := jcs.Append(nil, m)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}
