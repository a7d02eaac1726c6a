package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/internal/wiretest"
)

// FuzzAccumulator feeds arbitrary frames: the accumulator must never panic,
// and every call it returns must satisfy the Args/ArgsError rule.
func FuzzAccumulator(f *testing.F) {
	for _, q := range quirks {
		f.Add([]byte(q.sse))
	}
	f.Fuzz(func(t *testing.T, stream []byte) {
		a := &accumulator{}
		n := 0
		for _, frame := range bytes.Split(stream, []byte("\n\n")) {
			frame = bytes.TrimPrefix(frame, []byte("data: "))
			_, _ = a.feed(frame)
			n++
		}
		resp := a.result(func() string { n++; return fmt.Sprint("id-", n) })
		for _, tc := range resp.ToolCalls {
			if tc.ID == "" {
				t.Fatal("call without id")
			}
			if tc.ArgsError == "" && (!json.Valid(tc.Args) || tc.Args[0] != '{') {
				t.Fatalf("args %q accepted as an object", tc.Args)
			}
		}
	})
}

// stream1000 builds an SSE stream of n text chunks plus a usage chunk.
func stream1000(n int) []byte {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-4o\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"word%d \"},\"logprobs\":null,\"finish_reason\":null}],\"usage\":null}\n\n", i)
	}
	b.WriteString(`data: {"id":"chatcmpl-1","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\n")
	b.WriteString(`data: {"id":"chatcmpl-1","choices":[],"usage":{"prompt_tokens":10,"completion_tokens":1000}}` + "\n\n")
	b.WriteString("data: [DONE]\n\n")
	return []byte(b.String())
}

// BenchmarkDecodeStream1000 decodes a 1,000-chunk stream (SSE reader +
// accumulator + frame capture), no network.
func BenchmarkDecodeStream1000(b *testing.B) {
	data := stream1000(1000)
	c := newAPIClient(Options{BaseURL: "http://x", Model: "m"})
	wiretest.BenchDecode(b, data, func(body io.Reader) (*llm.Response, error) {
		resp := &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(body)}
		var ex llm.Exchange
		return c.readStream(resp, &ex, c.sender.Profile, func(string) bool { return true })
	})
}
