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

// capture builds the llmRequest value for a finished call and stores blobs
// as the policy says.
func (rs *runState) capture(iter int, model string, ex *llm.Exchange) LLMRequest {
	out := LLMRequest{
		Iteration: iter, Provider: rs.a.provider.Name(), Model: model, Endpoint: ex.Endpoint,
		Spans: append([]llm.Span{}, ex.Spans...),
	}
	full := rs.a.cfg.capture == CaptureFull
	if ex.RequestBody != nil {
		h := hashHex(ex.RequestBody)
		out.Request = CapturedBody{Sha256: h, Bytes: len(ex.RequestBody), Stored: string(rs.a.cfg.capture)}
		if full {
			rs.putBlob(h, ex.RequestBody)
			out.Request.Blob = "sha256:" + h
		}
	} else {
		out.Request = CapturedBody{Stored: "unavailable"}
	}
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
