// Request capture: the llmRequest value call-llm commits — the hashes of the
// exact bytes sent and received, their blobs per the capture policy, and the
// byte span of every unit, so explain can show which bytes of a request a
// suspect put there.

package agent

import (
	"bytes"

	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/llm"
)

// LLMRequest is the value of llmRequest for one model call (declared in
// package state, where explain reads it too).
type LLMRequest = state.LLMRequest

// CapturedBody is one side of an exchange: the SHA-256 (hex) and length of
// the exact bytes, how they were kept and the blob that holds them.
type CapturedBody = state.CapturedBody

// minSharedPrefix is the fewest bytes a request must share with the one
// before it to be kept as a delta; below it the whole body is a blob.
const minSharedPrefix = 256

// capture builds the llmRequest value for a finished call and stores blobs
// as the policy says. A request that begins with most of the previous
// request's bytes (the usual case: the conversation so far, then what is
// new) is kept as a delta on it, and its spans inside the shared bytes are
// the previous call's, so the record keeps each byte and each span once.
func (rs *runState) capture(iter int, model string, ex *llm.Exchange) LLMRequest {
	out := LLMRequest{Iteration: iter, Provider: rs.a.provider.Name(), Model: model, Endpoint: ex.Endpoint}
	full := rs.a.cfg.capture == CaptureFull
	shared := 0
	if body := ex.RequestBody; body != nil {
		h := hashHex(body)
		out.Request = CapturedBody{Sha256: h, Bytes: len(body), Stored: string(rs.a.cfg.capture)}
		if rs.prevBody != nil {
			shared = sharedPrefix(rs.prevBody, body)
		}
		if full {
			rs.storeRequest(h, body, shared)
			out.Request.Blob = "sha256:" + h
		}
		rs.prevBody, rs.prevHash = body, h
	} else {
		out.Request = CapturedBody{Stored: "unavailable"}
		rs.prevBody, rs.prevHash = nil, ""
	}
	kept := 0
	if shared >= minSharedPrefix {
		for kept < len(ex.Spans) && kept < len(rs.prevSpans) && ex.Spans[kept] == rs.prevSpans[kept] && ex.Spans[kept].End <= shared {
			kept++
		}
	}
	out.SpansKept = kept
	out.Spans = append([]llm.Span{}, ex.Spans[kept:]...)
	rs.prevSpans = ex.Spans
	resp := ex.ResponseBody
	if resp == nil && len(ex.Frames) > 0 {
		resp = bytes.Join(ex.Frames, []byte("\n"))
	}
	if resp != nil {
		h := hashHex(resp)
		out.Response = CapturedBody{Sha256: h, Bytes: len(resp)}
		if full {
			rs.putBlob(h, resp)
			out.Response.Blob = "sha256:" + h
		}
	}
	return out
}

// storeRequest keeps body (whose SHA-256 is h): whole, or as the previous
// request's first shared bytes plus a tail blob.
func (rs *runState) storeRequest(h string, body []byte, shared int) {
	if shared < minSharedPrefix {
		rs.putBlob(h, body)
		return
	}
	tail := body[shared:]
	th := hashHex(tail)
	rs.putBlob(th, tail)
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.requests == nil {
		rs.requests = map[string]RequestDelta{}
	}
	if _, whole := rs.blobs[h]; !whole {
		rs.requests[h] = RequestDelta{Base: rs.prevHash, Keep: shared, Tail: th}
	}
}

// sharedPrefix is the length of the longest common prefix of a and b.
func sharedPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for i+8 <= n && string(a[i:i+8]) == string(b[i:i+8]) {
		i += 8
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}
