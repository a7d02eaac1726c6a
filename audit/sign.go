// This file holds the optional Ed25519 signature over a segment's header and final hash.

package audit

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"

	"github.com/agentfootprint/agentfootprint-go/internal/jcs"
)

// Signature is a segment signature: Ed25519 over the canonical JSON of the header without
// its signature plus finalHash ({format, hashAlgorithm, canonicalization, chainHead,
// firstSeq, recordCount, exportedAt, library, finalHash}). An agentfootprint.audit/1 segment's
// signature covers {format, hashAlgorithm, canonicalization, chainHead, firstSeq,
// recordCount, finalHash} only.
type Signature struct {
	// Alg is "ed25519".
	Alg string `json:"alg"`
	// KeyID is the hex of the first 16 bytes of SHA-256 of the public key.
	KeyID string `json:"keyId"`
	// Value is the signature, standard base64.
	Value string `json:"value"`
}

// signatureAlg is the one signature algorithm segments use.
const signatureAlg = "ed25519"

// keyID returns the key id of an Ed25519 public key.
func keyID(pub ed25519.PublicKey) string {
	sum := sha256.Sum256(pub)
	return hex.EncodeToString(sum[:16])
}

// signedBytes is the message a segment signature covers.
func (s *Segment) signedBytes() ([]byte, error) {
	h := s.Header
	if h.Format != legacyFormat {
		m := headerFields(h)
		m["finalHash"] = s.FinalHash
		return jcs.Append(nil, m)
	}
	return jcs.Append(nil, map[string]any{
		"format":           h.Format,
		"hashAlgorithm":    h.HashAlgorithm,
		"canonicalization": h.Canonicalization,
		"chainHead":        h.ChainHead,
		"firstSeq":         h.FirstSeq,
		"recordCount":      h.RecordCount,
		"finalHash":        s.FinalHash,
	})
}

func (s *Segment) sign(key ed25519.PrivateKey) error {
	msg, err := s.signedBytes()
	if err != nil {
		return err
	}
	pub, ok := key.Public().(ed25519.PublicKey)
	if !ok {
		return errors.New("audit: signing key has no Ed25519 public key")
	}
	s.Header.Signature = &Signature{
		Alg:   signatureAlg,
		KeyID: keyID(pub),
		Value: base64.StdEncoding.EncodeToString(ed25519.Sign(key, msg)),
	}
	return nil
}

// checkSignature reports whether the segment's signature is valid for pub, with the reason
// when it is not.
func (s *Segment) checkSignature(pub ed25519.PublicKey) (bool, string) {
	sig := s.Header.Signature
	if sig.Alg != signatureAlg {
		return false, "signature algorithm " + sig.Alg + " is not ed25519"
	}
	if sig.KeyID != keyID(pub) {
		return false, "signed by key " + sig.KeyID + ", not by the given key " + keyID(pub)
	}
	raw, err := base64.StdEncoding.Strict().DecodeString(sig.Value) // strict: unused padding bits must be zero
	if err != nil || len(raw) != ed25519.SignatureSize {
		return false, "signature value is not a base64 Ed25519 signature"
	}
	msg, err := s.signedBytes()
	if err != nil {
		return false, err.Error()
	}
	if !ed25519.Verify(pub, msg, raw) {
		return false, "signature does not match the header and final hash"
	}
	return true, ""
}
