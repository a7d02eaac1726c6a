// Digest strings: a model call names three or four blobs by their SHA-256
// (the request, its tail, the response, a tool's output), and the record
// keeps each name. The names of a run are written into a few shared
// buffers instead of one allocation each.

package agent

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// refPrefix starts every blob reference; the bare hex digest follows it.
const refPrefix = "sha256:"

// refLen is the length of one reference, "sha256:" and 64 hex digits.
const refLen = len(refPrefix) + 2*sha256.Size

// digestsPerBuffer is how many references one buffer holds: a turn of ten
// model calls fits in one.
const digestsPerBuffer = 48

// digests hands out reference strings from a strings.Builder used only to
// append: every string it returned covers bytes the builder never writes
// again, so each stays valid and unchanged as more are added. A full buffer
// is left to the strings that point into it and a new one is started. Not
// safe for concurrent use: the run's lock guards it.
type digests struct {
	b strings.Builder
	// n counts the references handed out; first, when set, is how many
	// the first buffer holds.
	n, first int
}

// ref returns sum as "sha256:<hex>" and as the bare hex inside it.
func (d *digests) ref(sum *[sha256.Size]byte) (ref, h string) {
	if d.b.Cap()-d.b.Len() < refLen {
		per := digestsPerBuffer
		if d.n == 0 && d.first > 0 {
			per = d.first
		}
		d.b.Reset()
		d.b.Grow(per * refLen)
	}
	d.n++
	var buf [refLen]byte
	copy(buf[:], refPrefix)
	hex.Encode(buf[len(refPrefix):], sum[:])
	start := d.b.Len()
	d.b.Write(buf[:])
	ref = d.b.String()[start:]
	return ref, ref[len(refPrefix):]
}
