// This file reads the Ed25519 key files the CLI takes for signing (`--key`) and checking
// (`--pubkey`). Writing one is the standard library's (crypto/x509 and encoding/pem) or
// openssl's (`openssl genpkey -algorithm ed25519`, `openssl pkey -pubout`).

package audit

import (
	"crypto/ed25519"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"strings"
)

// ParsePublicKey reads an Ed25519 public key from a PEM "PUBLIC KEY" block (PKIX, as
// openssl writes it), or from 32 bytes written as hex or standard base64. It refuses
// anything else, naming what it found.
func ParsePublicKey(data []byte) (ed25519.PublicKey, error) {
	if block, _ := pem.Decode(data); block != nil {
		if block.Type != "PUBLIC KEY" {
			return nil, fmt.Errorf("audit: public key: PEM block %q, want \"PUBLIC KEY\"", block.Type)
		}
		k, err := x509.ParsePKIXPublicKey(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("audit: public key: %w", err)
		}
		pub, ok := k.(ed25519.PublicKey)
		if !ok {
			return nil, fmt.Errorf("audit: public key is %T, not Ed25519", k)
		}
		return pub, nil
	}
	raw, err := decodeText(data, ed25519.PublicKeySize)
	if err != nil {
		return nil, fmt.Errorf("audit: public key: %w", err)
	}
	return ed25519.PublicKey(raw), nil
}

// ParsePrivateKey reads an Ed25519 private key from a PEM "PRIVATE KEY" block (PKCS #8, as
// openssl writes it), or from its 32-byte seed written as hex or standard base64.
func ParsePrivateKey(data []byte) (ed25519.PrivateKey, error) {
	if block, _ := pem.Decode(data); block != nil {
		if block.Type != "PRIVATE KEY" {
			return nil, fmt.Errorf("audit: private key: PEM block %q, want \"PRIVATE KEY\"", block.Type)
		}
		k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("audit: private key: %w", err)
		}
		priv, ok := k.(ed25519.PrivateKey)
		if !ok {
			return nil, fmt.Errorf("audit: private key is %T, not Ed25519", k)
		}
		return priv, nil
	}
	seed, err := decodeText(data, ed25519.SeedSize)
	if err != nil {
		return nil, fmt.Errorf("audit: private key: %w", err)
	}
	return ed25519.NewKeyFromSeed(seed), nil
}

// decodeText reads size bytes written as hex or standard base64.
func decodeText(data []byte, size int) ([]byte, error) {
	s := strings.TrimSpace(string(data))
	if s == "" {
		return nil, errors.New("empty")
	}
	if raw, err := hex.DecodeString(s); err == nil && len(raw) == size {
		return raw, nil
	}
	if raw, err := base64.StdEncoding.DecodeString(s); err == nil && len(raw) == size {
		return raw, nil
	}
	return nil, fmt.Errorf("not PEM, nor %d bytes in hex or base64", size)
}
