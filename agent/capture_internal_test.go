// The prefix hasher against crypto/sha256 on bodies that share prefixes of
// every length around its chunk boundaries, and on ones that share nothing.

package agent

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"testing"
)

func TestPrefixHasherMatchesSHA256(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var p prefixHasher
	var prev []byte
	for i := range 300 {
		var body []byte
		switch i % 5 {
		case 0: // unrelated bytes
			body = make([]byte, rng.IntN(4*hashChunk))
			for j := range body {
				body[j] = byte(rng.IntN(256))
			}
		default: // the previous body cut somewhere near a boundary, then new bytes
			cut := min(len(prev), max(0, (rng.IntN(8)*hashChunk)+rng.IntN(3)-1))
			body = append(bytes.Clone(prev[:cut]), bytes.Repeat([]byte{byte(i)}, rng.IntN(3*hashChunk))...)
		}
		shared := 0
		if prev != nil {
			shared = sharedPrefix(prev, body)
		}
		ref, h := p.sum(body, shared)
		want := sha256.Sum256(body)
		if h != hex.EncodeToString(want[:]) || ref != "sha256:"+h {
			t.Fatalf("body %d (%d bytes, %d shared): got %s, want %x", i, len(body), shared, ref, want)
		}
		prev = body
	}
}
