// This file holds the byte-level delta: a value written as copies from a base (the bytes of
// the run before it in its conversation) and the literal bytes between them. A turn repeats
// most of the turn before it in slightly different places (the history again, one more
// message, new ids and times), so the copies carry the repeated bytes at a few bytes each
// and only what is new is written out; DEFLATE then squeezes the literals. A record also names
// its run's blobs by their SHA-256 in hex: such a digest is written as its index in the run's
// blob list.

package stored

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// The delta's operations, one tag byte each.
const (
	opCopy    = 'B' // zigzag varint: where the copy starts, relative to where the last one ended; uvarint length
	opLiteral = 'L' // uvarint length, then that many bytes
	opDigest  = 'H' // uvarint index into the run's blob digests: that digest's 64 hex digits
)

// digestLen is the length of a blob digest written in hex.
const digestLen = 64

// minCopy is the shortest run of bytes taken from the base: a shorter one costs about as much
// as a copy as it does as a literal under DEFLATE.
const minCopy = 16

// deltaIndexBits sizes the table of base positions the encoder looks matches up in.
const deltaIndexBits = 17

// hashAt hashes the 8 bytes at b[i:] for the base index.
func hashAt(b []byte, i int) uint32 {
	return uint32((binary.LittleEndian.Uint64(b[i:]) * 0x9e3779b97f4a7c15) >> (64 - deltaIndexBits))
}

// deltaEncoder finds in a base the runs of bytes a value repeats.
type deltaEncoder struct {
	base  []byte
	table []int32 // per hash, the last base position whose 8 bytes have it, plus one (0: none)
	// digests are the run's blob digests by their hex, with their index in its sorted blob
	// list: a record names its blobs by digest, and a reference costs a byte or two where
	// 64 fresh hex digits cost DEFLATE about 36 bytes.
	digests map[string]int
}

// reset makes e an encoder on base (indexed at every position, so a match is found wherever
// it starts; e keeps its own copy, which extend grows) and on digests, the run's sorted blob
// digests, which the delta may name by index. It keeps the memory e already has.
func (e *deltaEncoder) reset(base []byte, digests []string) {
	if e.table == nil {
		e.table = make([]int32, 1<<deltaIndexBits)
	} else {
		clear(e.table)
	}
	if e.digests == nil {
		e.digests = make(map[string]int, len(digests))
	} else {
		clear(e.digests)
	}
	for i, d := range digests {
		if len(d) == digestLen {
			e.digests[d] = i
		}
	}
	e.base = e.base[:0]
	if cap(e.base) > 4*len(base)+(1<<20) {
		e.base = nil // a much larger base before: do not keep its memory
	}
	e.extend(base)
}

// isHex reports whether c is a lowercase hex digit.
func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' }

// digestAt returns the index of the run's blob digest written at v[i:], or -1.
func (e *deltaEncoder) digestAt(v []byte, i int) int {
	if len(e.digests) == 0 || i+digestLen > len(v) || i > 0 && isHex(v[i-1]) ||
		i+digestLen < len(v) && isHex(v[i+digestLen]) || !isHex(v[i]) {
		return -1
	}
	if k, ok := e.digests[string(v[i:i+digestLen])]; ok {
		return k
	}
	return -1
}

// extend appends more to the base and indexes the positions it adds.
func (e *deltaEncoder) extend(more []byte) {
	from := max(len(e.base)-7, 0)
	e.base = append(e.base, more...)
	for i := from; i+8 <= len(e.base); i++ {
		e.table[hashAt(e.base, i)] = int32(i + 1)
	}
}

// encode appends the operations that rebuild v from the base to out.
func (e *deltaEncoder) encode(out, v []byte) []byte {
	base := e.base
	lit := 0     // start of the literal bytes not yet written
	lastEnd := 0 // where the last copy ended in the base
	next := -1   // the base position right after the last copy: the likeliest next match
	flush := func(end int) {
		if end > lit {
			out = append(out, opLiteral)
			out = binary.AppendUvarint(out, uint64(end-lit))
			out = append(out, v[lit:end]...)
		}
	}
	for i := 0; len(base) >= minCopy && i+minCopy <= len(v); {
		p := -1
		if next >= 0 && next+minCopy <= len(base) && bytes.Equal(base[next:next+minCopy], v[i:i+minCopy]) {
			p = next
		} else if c := int(e.table[hashAt(v, i)]) - 1; c >= 0 && c+minCopy <= len(base) && bytes.Equal(base[c:c+minCopy], v[i:i+minCopy]) {
			p = c
		}
		if p < 0 {
			if k := e.digestAt(v, i); k >= 0 {
				flush(i)
				out = append(out, opDigest)
				out = binary.AppendUvarint(out, uint64(k))
				i += digestLen
				lit = i
				continue
			}
			i++
			continue
		}
		// Grow the match backwards into the pending literal, then forwards.
		s, b := i, p
		for s > lit && b > 0 && base[b-1] == v[s-1] {
			s--
			b--
		}
		end, bend := i+minCopy, p+minCopy
		for end < len(v) && bend < len(base) && v[end] == base[bend] {
			end++
			bend++
		}
		flush(s)
		out = append(out, opCopy)
		out = binary.AppendVarint(out, int64(b-lastEnd))
		out = binary.AppendUvarint(out, uint64(end-s))
		lastEnd, next = bend, bend
		i, lit = end, end
	}
	flush(len(v))
	return out
}

// applyDelta rebuilds a value of total bytes from its operations ops, the base and the run's
// blob digests. It refuses a copy outside the base, a digest the run does not list and
// operations that do not add up to total.
func applyDelta(ops, base []byte, digests []string, total int) ([]byte, error) {
	out := make([]byte, 0, total)
	lastEnd := 0
	for len(ops) > 0 {
		tag := ops[0]
		ops = ops[1:]
		switch tag {
		case opLiteral:
			n, k := binary.Uvarint(ops)
			if k <= 0 || n > uint64(len(ops)-k) || n > uint64(total-len(out)) {
				return nil, fmt.Errorf("literal at byte %d: bad length", len(out))
			}
			out = append(out, ops[k:k+int(n)]...)
			ops = ops[k+int(n):]
		case opCopy:
			rel, k := binary.Varint(ops)
			if k <= 0 {
				return nil, fmt.Errorf("copy at byte %d: bad offset", len(out))
			}
			ops = ops[k:]
			n, k := binary.Uvarint(ops)
			if k <= 0 || n == 0 || n > uint64(total-len(out)) {
				return nil, fmt.Errorf("copy at byte %d: bad length", len(out))
			}
			ops = ops[k:]
			start := int64(lastEnd) + rel
			if start < 0 || start > int64(len(base)) || n > uint64(int64(len(base))-start) {
				return nil, fmt.Errorf("copy at byte %d: outside the %d bytes of its base", len(out), len(base))
			}
			out = append(out, base[start:start+int64(n)]...)
			lastEnd = int(start) + int(n)
		case opDigest:
			k, n := binary.Uvarint(ops)
			if n <= 0 || k >= uint64(len(digests)) || len(digests[k]) != digestLen || total-len(out) < digestLen {
				return nil, fmt.Errorf("digest at byte %d: not one of the run's %d blobs", len(out), len(digests))
			}
			out = append(out, digests[k]...)
			ops = ops[n:]
		default:
			return nil, fmt.Errorf("unknown delta operation %#x at byte %d", tag, len(out))
		}
	}
	if len(out) != total {
		return nil, fmt.Errorf("delta rebuilds %d bytes, the form declares %d", len(out), total)
	}
	return out, nil
}
