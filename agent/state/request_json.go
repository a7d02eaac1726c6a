// Reading an LLMRequest's JSON without reflection: a stored run has one per
// model call, and explain reads them all back.

package state

import (
	"encoding/json"

	"github.com/agentfootprint/agentfootprint-go/internal/fastjson"
	"github.com/agentfootprint/agentfootprint-go/llm"
)

// UnmarshalJSON reads a model call's capture. The form the record writes
// (exact member names, each once, no nulls) into an empty LLMRequest is
// read by hand; any other input, or an LLMRequest that holds something
// already, goes through encoding/json, with the same result and the same
// errors.
func (q *LLMRequest) UnmarshalJSON(data []byte) error {
	if q.Iteration == 0 && q.Provider == "" && q.Model == "" && q.Endpoint == "" &&
		q.Request == (CapturedBody{}) && q.Response == (CapturedBody{}) && q.Spans == nil && q.SpansKept == 0 {
		if fast, ok := readLLMRequest(data); ok {
			*q = fast
			return nil
		}
	}
	type plain LLMRequest // the same fields, without this method
	return fastjson.NameAs[plain, LLMRequest](json.Unmarshal(data, (*plain)(q)))
}

// readLLMRequest reads data in the written form; false when it is not.
func readLLMRequest(data []byte) (LLMRequest, bool) {
	var q LLMRequest
	r := fastjson.NewReader(data)
	ok := r.Object(func(name []byte) bool {
		var ok bool
		switch string(name) {
		case "iteration":
			q.Iteration, ok = r.Int()
		case "provider":
			q.Provider, ok = r.Text()
		case "model":
			q.Model, ok = r.Text()
		case "endpoint":
			q.Endpoint, ok = r.Text()
		case "request":
			ok = readBody(r, &q.Request)
		case "response":
			ok = readBody(r, &q.Response)
		case "spans":
			q.Spans = []llm.Span{}
			ok = r.Array(func() bool {
				var s llm.Span
				ok := r.Object(func(name []byte) bool {
					var ok bool
					switch string(name) {
					case "unit":
						s.Unit, ok = r.Text()
					case "kind":
						var k string
						k, ok = r.Text()
						s.Kind = llm.SpanKind(k)
					case "start":
						s.Start, ok = r.Int()
					case "end":
						s.End, ok = r.Int()
					}
					return ok
				})
				q.Spans = append(q.Spans, s)
				return ok
			})
		case "spansKept":
			q.SpansKept, ok = r.Int()
		}
		return ok
	})
	return q, ok && r.Done()
}

// readBody reads a CapturedBody in the written form into b.
func readBody(r *fastjson.Reader, b *CapturedBody) bool {
	return r.Object(func(name []byte) bool {
		var ok bool
		switch string(name) {
		case "sha256":
			b.Sha256, ok = r.Text()
		case "bytes":
			b.Bytes, ok = r.Int()
		case "stored":
			b.Stored, ok = r.Text()
		case "blob":
			b.Blob, ok = r.Text()
		}
		return ok
	})
}
