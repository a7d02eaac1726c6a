// Request capture: the llmRequest value call-llm commits — the hashes of the
// exact bytes sent and received, their blobs per the capture policy, and the
// byte span of every unit, so explain can show which bytes of a request a
// suspect put there.

package agent

import (
	"bytes"
	"crypto/sha256"
	"encoding"
	"hash"

	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/llm"
)

// minSharedPrefix is the fewest bytes a request must share with the one
// before it to be kept as a delta; below it the whole body is a blob.
const minSharedPrefix = 256

// capture builds the llmRequest value for a finished call and stores blobs
// as the policy says. A request that begins with most of the previous
// request's bytes (the usual case: the conversation so far, then what is
// new) is kept as a delta on it, and its spans inside the shared bytes are
// the previous call's, so the record keeps each byte and each span once.
func (rs *runState) capture(iter int, model string, ex *llm.Exchange) state.LLMRequest {
	out := state.LLMRequest{Iteration: iter, Provider: rs.a.provider.Name(), Model: model, Endpoint: ex.Endpoint}
	full := rs.a.cfg.capture == record.CaptureFull
	shared := 0
	if body := ex.RequestBody; body != nil {
		if rs.prevBody != nil && !sameBuffer(rs.prevBody, body) {
			shared = sharedPrefix(rs.prevBody, body)
		} else {
			// A provider that reuses one buffer for every request leaves
			// nothing to compare with: hash and keep this one whole.
			rs.scratch().hash.forget()
		}
		sum := rs.scratch().hash.sum(body, shared, lastMessageEnd(ex.Spans))
		ref, h := rs.digest(&sum)
		out.Request = state.CapturedBody{Sha256: h, Bytes: len(body), Stored: string(rs.a.cfg.capture)}
		if full {
			rs.storeRequest(h, body, shared)
			out.Request.Blob = ref
		}
		rs.prevBody, rs.prevHash = body, h
	} else {
		out.Request = state.CapturedBody{Stored: "unavailable"}
		rs.prevBody, rs.prevHash = nil, ""
		rs.scratch().hash.forget()
	}
	kept := 0
	if shared >= minSharedPrefix {
		for kept < len(ex.Spans) && kept < len(rs.prevSpans) && ex.Spans[kept] == rs.prevSpans[kept] && ex.Spans[kept].End <= shared {
			kept++
		}
	}
	out.SpansKept = kept
	// Copied: a provider written outside this module may reuse its buffers.
	// The copies of a run share a few chunks; an empty list stays [], not null.
	out.Spans = rs.spans.copyOf(ex.Spans[kept:], rs.spanFirst(), 64)
	if out.Spans == nil {
		out.Spans = []llm.Span{}
	}
	rs.prevSpans = ex.Spans
	resp := ex.ResponseBody
	if resp == nil && len(ex.Frames) > 0 {
		resp = bytes.Join(ex.Frames, []byte("\n"))
	}
	if resp != nil {
		sum := sha256.Sum256(resp)
		ref, h := rs.digest(&sum)
		out.Response = state.CapturedBody{Sha256: h, Bytes: len(resp)}
		if full {
			rs.putBlob(h, resp)
			out.Response.Blob = ref
		}
	}
	return out
}

// spanFirst is the size of the span chunk's first backing array: the spans
// the agent's last run carved from it, or 16 before any run ended.
func (rs *runState) spanFirst() int {
	if n := int(rs.a.sizes.spans.Load()); n > 0 {
		return n
	}
	return 16
}

// storeRequest keeps body (whose SHA-256 is h): whole, or as the previous
// request's first shared bytes, a tail blob, and the previous request's
// last bytes when body ends as it did (the tool declarations and settings
// that follow the messages).
func (rs *runState) storeRequest(h string, body []byte, shared int) {
	if shared < minSharedPrefix {
		rs.putBlob(h, body)
		return
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	_, whole := rs.blobs[h]
	if _, delta := rs.requests[h]; whole || delta || h == rs.prevHash {
		return // a body sent before is kept already (and a delta on itself would rebuild nothing)
	}
	reuse := sharedSuffix(rs.prevBody[shared:], body[shared:])
	tail := body[shared : len(body)-reuse]
	sum := sha256.Sum256(tail)
	_, th := rs.digestLocked(&sum)
	rs.putBlobLocked(th, tail)
	if rs.requests == nil {
		rs.requests = make(map[string]record.RequestDelta, min(rs.a.cfg.maxIter, 64))
	}
	rs.requests[h] = record.RequestDelta{Base: rs.prevHash, Keep: shared, Tail: th, Reuse: reuse}
}

// lastMessageEnd is the end of the last message's bytes in a request, from
// its spans (0: none). The next request of a turn repeats the messages and
// adds new ones after them, so it usually parts from this one just there.
func lastMessageEnd(spans []llm.Span) int {
	for i := len(spans) - 1; i >= 0; i-- {
		if spans[i].Kind == llm.SpanMessage {
			return spans[i].End
		}
	}
	return 0
}

// sameBuffer reports whether a and b start at the same byte of memory.
func sameBuffer(a, b []byte) bool {
	return len(a) > 0 && len(b) > 0 && &a[0] == &b[0]
}

// sharedPrefix is the length of the longest common prefix of a and b.
func sharedPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	// Whole chunks first (bytes.Equal compares many bytes per step), then
	// words and bytes inside the chunk where they part.
	for i+256 <= n && bytes.Equal(a[i:i+256], b[i:i+256]) {
		i += 256
	}
	for i+8 <= n && string(a[i:i+8]) == string(b[i:i+8]) {
		i += 8
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// sharedSuffix is the length of the longest common suffix of a and b.
func sharedSuffix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for i+8 <= n && string(a[len(a)-i-8:len(a)-i]) == string(b[len(b)-i-8:len(b)-i]) {
		i += 8
	}
	for i < n && a[len(a)-1-i] == b[len(b)-1-i] {
		i++
	}
	return i
}

// hashChunk is the stride at which prefixHasher keeps the state of the hash.
const hashChunk = 512

// prefixHasher hashes one request body after another, each usually the
// previous one plus a little: it keeps the SHA-256 state after every
// hashChunk bytes of the last body, and one more at the byte the caller
// expects the next body to part from it (the end of the last message), so
// the next body is hashed from the last state inside the bytes both share.
// A turn of n calls then hashes about n bodies' worth of new bytes instead
// of n whole, growing bodies.
type prefixHasher struct {
	d     hash.Hash
	snaps []byte // the states, each size bytes, after 1, 2, … chunks
	size  int
	// mark is the state after the first markAt bytes of the last body
	// (markAt 0: none).
	mark   []byte
	markAt int
	// out receives each digest: a buffer handed to the hash.Hash interface
	// escapes, so it is kept instead of made per body.
	out []byte
}

// sum returns the SHA-256 of body; the first shared bytes of body are
// those of the body hashed before. mark, when inside body, is where the
// next body is expected to part from this one.
func (p *prefixHasher) sum(body []byte, shared, mark int) (sum [sha256.Size]byte) {
	if p.d == nil {
		p.d = sha256.New()
	}
	k := 0
	if p.size > 0 {
		k = min(shared/hashChunk, len(p.snaps)/p.size)
	}
	pos := 0
	switch {
	case p.markAt > k*hashChunk && p.markAt <= shared && p.restore(p.mark):
		pos = p.markAt
	case k > 0 && p.restore(p.snaps[(k-1)*p.size:k*p.size]):
		pos = k * hashChunk
	default:
		k = 0
		p.d.Reset()
	}
	p.snaps = p.snaps[:k*p.size]
	p.markAt = 0
	if need := len(body) / hashChunk * p.size; need > cap(p.snaps) {
		// Room for this body's states and as many again: the next bodies
		// are usually this one plus a little, so one growth lasts a while.
		p.snaps = append(make([]byte, 0, 2*need), p.snaps...)
	}
	if mark <= pos || mark >= len(body) {
		mark = 0
	}
	keep := true
	for next := (pos/hashChunk + 1) * hashChunk; pos < len(body); {
		stop := min(next, len(body))
		if mark > 0 && mark < stop {
			stop = mark
		}
		p.d.Write(body[pos:stop])
		pos = stop
		if pos == mark {
			if st, err := p.d.(encoding.BinaryAppender).AppendBinary(p.mark[:0]); err == nil {
				p.mark, p.markAt = st, mark
			}
			mark = 0
		}
		if pos != next {
			continue
		}
		next += hashChunk
		if !keep {
			continue
		}
		before := len(p.snaps)
		snaps, err := p.d.(encoding.BinaryAppender).AppendBinary(p.snaps)
		switch {
		case err != nil || (p.size > 0 && len(snaps)-before != p.size):
			// No states kept (cannot happen with sha256): the next body
			// is hashed from its start.
			p.snaps, p.size, keep = p.snaps[:0], 0, false
		default:
			p.snaps, p.size = snaps, len(snaps)-before
		}
	}
	p.out = p.d.Sum(p.out[:0])
	copy(sum[:], p.out)
	return sum
}

// restore sets the hash to a state sum kept; false when it cannot (never
// for a state sha256 wrote).
func (p *prefixHasher) restore(state []byte) bool {
	return len(state) > 0 && p.d.(encoding.BinaryUnmarshaler).UnmarshalBinary(state) == nil
}

// wipe drops the kept states and the hash and zeroes the states' bytes (a
// state keeps the bytes of a partial block, text of the request), so a
// hasher handed to another run keeps nothing of this one's requests.
func (p *prefixHasher) wipe() {
	clear(p.snaps[:cap(p.snaps)])
	clear(p.mark[:cap(p.mark)])
	p.snaps, p.mark, p.markAt, p.d = p.snaps[:0], p.mark[:0], 0, nil
}

// forget drops the kept states: the next body shares nothing known.
func (p *prefixHasher) forget() { p.snaps, p.markAt = p.snaps[:0], 0 }
