// This file checks the key file formats round-trip and bad key files are refused.

package audit

import (
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"testing"
)

func TestKeyFiles(t *testing.T) {
	pub, priv := testKey(7)
	pubPEM, err := marshalPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	privPEM, err := marshalPrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	for name, in := range map[string][]byte{
		"pem":    pubPEM,
		"hex":    []byte(hex.EncodeToString(pub) + "\n"),
		"base64": []byte(base64.StdEncoding.EncodeToString(pub)),
	} {
		got, err := ParsePublicKey(in)
		if err != nil || !got.Equal(pub) {
			t.Errorf("ParsePublicKey(%s) = %x, %v", name, got, err)
		}
	}
	for name, in := range map[string][]byte{
		"pem":  privPEM,
		"seed": []byte(hex.EncodeToString(priv.Seed())),
	} {
		got, err := ParsePrivateKey(in)
		if err != nil || !got.Equal(priv) {
			t.Errorf("ParsePrivateKey(%s) failed: %v", name, err)
		}
	}
	for name, in := range map[string][]byte{
		"empty":       nil,
		"short hex":   []byte("abcd"),
		"private pem": privPEM,
		"garbage pem": []byte("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n"),
	} {
		if _, err := ParsePublicKey(in); err == nil {
			t.Errorf("ParsePublicKey(%s) accepted it", name)
		}
	}
	if _, err := ParsePrivateKey(pubPEM); err == nil {
		t.Error("ParsePrivateKey(public PEM) accepted it")
	}
	if keyID(pub) != hex.EncodeToString(sha256First16(pub)) || len(keyID(pub)) != 32 {
		t.Errorf("KeyID = %s", keyID(pub))
	}
	var _ ed25519.PublicKey = pub
}

func sha256First16(b []byte) []byte {
	sum := sha256.Sum256(b)
	return sum[:16]
}

// marshalPublicKey returns pub as a PEM "PUBLIC KEY" block.
func marshalPublicKey(pub ed25519.PublicKey) ([]byte, error) {
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}), nil
}

// marshalPrivateKey returns priv as a PEM "PRIVATE KEY" block (PKCS #8).
func marshalPrivateKey(priv ed25519.PrivateKey) ([]byte, error) {
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), nil
}
