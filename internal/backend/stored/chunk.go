// This file holds the content-defined cut: where a stream of bytes is split into chunks, so
// that the same run of bytes is cut the same way wherever it appears (in a record, in the
// next turn's record, inside a request body) and its chunks are stored once.

package stored

import "bytes"

// The chunk sizes. Past minChunk bytes, a cut is made before an anchor or where a rolling
// hash of the last 64 bytes has its top avgBits bits zero (about every 2^avgBits bytes);
// at maxChunk bytes a cut is made anyway. Only the end of a value leaves a piece shorter
// than minChunk; it stays literal in the form, where compression against the dictionary
// costs it less than a 35-byte reference. (Measured on the 20-turn conversation: smaller
// minimums, or cuts at anchors sooner, leave more small pieces that then stay literal, and
// the store keeps more.)
const (
	minChunk = 256
	avgBits  = 9
	maxChunk = 8 << 10
)

// anchor is where a message object starts in the JSON of a record's history and of the
// providers' request bodies (role first): a cut before it makes each message start a chunk
// wherever it is written, so a message repeated in another context (the next turn's
// history, a request) is cut into the same chunks. (Anchoring commits and events too was
// measured: more, smaller chunks, which compress worse than the same bytes left literal.)
var anchor = []byte(`{"role":`)

// gear holds one pseudo-random 64-bit word per byte value: the rolling hash adds the word
// of each byte it reads. The words are a fixed function of the index (splitmix64), so
// every build cuts the same bytes in the same places; a change here changes which chunks
// new writes share with old ones (never what they read back).
var gear = func() (g [256]uint64) {
	x := uint64(0x61662d73746f7265) // "af-store"
	for i := range g {
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		g[i] = z ^ (z >> 31)
	}
	return g
}()

// cut returns the length of the first chunk of data.
func cut(data []byte) int {
	n := min(len(data), maxChunk)
	var h uint64
	for i := 0; i < n; i++ {
		if i >= minChunk && data[i] == anchor[0] && bytes.HasPrefix(data[i:], anchor) {
			return i
		}
		h = h<<1 + gear[data[i]]
		if i >= minChunk && h>>(64-avgBits) == 0 {
			return i + 1
		}
	}
	return n
}
