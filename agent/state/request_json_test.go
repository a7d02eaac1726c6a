// LLMRequest's hand-read JSON gives what encoding/json gives.

package state

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/google/go-cmp/cmp"
)

type plainRequest LLMRequest

func TestLLMRequestReadsTheRecordedForm(t *testing.T) {
	for _, in := range []LLMRequest{
		{Iteration: 3, Provider: "scripted", Model: "m-1", Endpoint: "https://api.example.test/v1/messages?x=1&y=2",
			Request:   CapturedBody{Sha256: strings.Repeat("ab", 32), Bytes: 2048, Stored: "full", Blob: "sha256:" + strings.Repeat("ab", 32)},
			Response:  CapturedBody{Sha256: strings.Repeat("cd", 32), Bytes: 120},
			Spans:     []llm.Span{{Unit: "system-prompt", Kind: llm.SpanSystemUnit, Start: 10, End: 40}, {Unit: "history/0", Kind: llm.SpanMessage, Start: 41, End: 90}},
			SpansKept: 4},
		{Iteration: 1, Provider: "p", Spans: []llm.Span{}},
	} {
		b, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := readLLMRequest(b); !ok {
			t.Fatalf("the hand reader gave up on the recorded form %s", b)
		}
		var out LLMRequest
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(in, out); d != "" {
			t.Errorf("round trip (-in +out):\n%s", d)
		}
	}
}

// FuzzLLMRequestJSON checks that LLMRequest's own reader reads every input
// as encoding/json reads it into the same struct.
func FuzzLLMRequestJSON(f *testing.F) {
	for _, s := range []string{
		`{"iteration":2,"provider":"scripted","model":"m","endpoint":"e","request":{"sha256":"aa","bytes":10,"stored":"full","blob":"sha256:aa"},"response":{"sha256":"bb","bytes":3},"spans":[{"unit":"u","kind":"message","start":1,"end":2}],"spansKept":1}`,
		`{"iteration":2,"spans":null}`, `{"request":{"bytes":1.5}}`, `{"REQUEST":{"sha256":"x"}}`,
		`{"spans":[{"unit":"u","unit":"v"}]}`, `{"endpoint":"a\u00e9\"b"}`, `{"iteration":-0}`, `[]`, `null`,
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, prefilled bool) {
		var into LLMRequest
		if prefilled {
			into = LLMRequest{Iteration: 9, Model: "before", Request: CapturedBody{Bytes: 4}, Spans: []llm.Span{{Unit: "x"}}}
		}
		sameAsEncodingJSON(t, data, into, func(b []byte, v *LLMRequest) error { return json.Unmarshal(b, (*plainRequest)(v)) }, "plainRequest", "LLMRequest")
	})
}
