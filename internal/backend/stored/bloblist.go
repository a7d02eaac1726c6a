// This file holds the blob list a run row keeps since schema 2: the digests of the run's
// blobs as 32-byte binary keys, in the row itself, instead of one link row per blob
// (run id and hex digest: 84 bytes against 32).

package stored

import (
	"encoding/hex"
	"fmt"
	"slices"
)

// BlobList returns the blob list of a run row for digests (lowercase hex SHA-256, as
// store.Run.Validate leaves them): sorted, each once, 32 bytes each. It is never nil, so a
// run without blobs is told from a row written before schema 2 (no list: its blobs are in
// the link table).
func BlobList(digests []string) ([]byte, error) {
	sorted := slices.Clone(digests)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	out := make([]byte, 0, len(sorted)*len(Key{}))
	for _, d := range sorted {
		k, err := ParseKey(d)
		if err != nil {
			return nil, err
		}
		out = append(out, k[:]...)
	}
	return out, nil
}

// ParseBlobList returns the digests (lowercase hex) of a run row's blob list, in order. It
// refuses a list that is not a whole number of keys, or not sorted and unique.
func ParseBlobList(list []byte) ([]string, error) {
	if len(list)%len(Key{}) != 0 {
		return nil, fmt.Errorf("blob list of %d bytes is not a whole number of 32-byte keys", len(list))
	}
	out := make([]string, 0, len(list)/len(Key{}))
	for i := 0; i < len(list); i += len(Key{}) {
		d := hex.EncodeToString(list[i : i+len(Key{})])
		if len(out) > 0 && d <= out[len(out)-1] {
			return nil, fmt.Errorf("blob list is not sorted (key %d)", len(out))
		}
		out = append(out, d)
	}
	return out, nil
}
