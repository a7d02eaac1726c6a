package wirecheck

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"testing"

	anthropicsdk "github.com/anthropics/anthropic-sdk-go"
	anthropicsse "github.com/anthropics/anthropic-sdk-go/packages/ssestream"
	"github.com/google/go-cmp/cmp"
	openaisdk "github.com/openai/openai-go"
	openaisse "github.com/openai/openai-go/packages/ssestream"

	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/anthropic"
	"github.com/agentfootprint/agentfootprint-go/llm/openai"
)

// tee is a transport that keeps a copy of every response body it reads.
type tee struct {
	mu     sync.Mutex
	bodies [][]byte
	ctype  []string
}

func (t *tee) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	t.mu.Lock()
	t.bodies = append(t.bodies, b)
	t.ctype = append(t.ctype, resp.Header.Get("Content-Type"))
	t.mu.Unlock()
	resp.Body = io.NopCloser(bytes.NewReader(b))
	return resp, err
}

func (t *tee) last() (*http.Response, []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.bodies[len(t.bodies)-1]
	h := http.Header{"Content-Type": {t.ctype[len(t.ctype)-1]}}
	return &http.Response{StatusCode: 200, Header: h, Body: io.NopCloser(bytes.NewReader(b))}, b
}

// decoded is what both decoders must agree on.
type decoded struct {
	Content string
	Calls   []string // id|name|args (args compacted)
	Input   int
	Output  int
}

func compact(raw []byte) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

func ours(resp *llm.Response) decoded {
	d := decoded{Content: resp.Content, Input: resp.Usage.Input, Output: resp.Usage.Output}
	for _, tc := range resp.ToolCalls {
		d.Calls = append(d.Calls, tc.ID+"|"+tc.Name+"|"+compact(tc.Args))
	}
	return d
}

// The official SDKs' own stream decoders, run on the very bytes the Ollama
// middleware produced, must agree with our clients on every scenario.
func TestOfficialSDKsAgreeOnMiddlewareStreams(t *testing.T) {
	srv, _ := server(t)
	tap := &tee{}
	hc := &http.Client{Transport: tap}
	oa := openai.New(openai.Options{BaseURL: srv.URL + "/v1", APIKey: "unused", HTTPClient: hc, Retry: llm.RetryPolicy{Attempts: 1}}).(llm.Streamer)
	an := anthropic.New(anthropic.Options{BaseURL: srv.URL, APIKey: "unused", HTTPClient: hc, Retry: llm.RetryPolicy{Attempts: 1}}).(llm.Streamer)
	for _, user := range []string{"say hello", "use one tool", "use two tools"} {
		t.Run("openai/"+user, func(t *testing.T) {
			resp, err := llm.Collect(oa.Stream(context.Background(), request(user)))
			if err != nil {
				t.Fatal(err)
			}
			httpResp, _ := tap.last()
			stream := openaisse.NewStream[openaisdk.ChatCompletionChunk](openaisse.NewDecoder(httpResp), nil)
			acc := openaisdk.ChatCompletionAccumulator{}
			for stream.Next() {
				acc.AddChunk(stream.Current())
			}
			if err := stream.Err(); err != nil {
				t.Fatalf("openai-go could not read the stream: %v", err)
			}
			sdk := decoded{Input: int(acc.Usage.PromptTokens), Output: int(acc.Usage.CompletionTokens)}
			if len(acc.Choices) > 0 {
				m := acc.Choices[0].Message
				sdk.Content = m.Content
				for _, tc := range m.ToolCalls {
					sdk.Calls = append(sdk.Calls, tc.ID+"|"+tc.Function.Name+"|"+compact([]byte(tc.Function.Arguments)))
				}
			}
			if diff := cmp.Diff(sdk, ours(resp)); diff != "" {
				t.Errorf("openai-go (-) and our client (+) disagree:\n%s", diff)
			}
		})
		t.Run("anthropic/"+user, func(t *testing.T) {
			resp, err := llm.Collect(an.Stream(context.Background(), request(user)))
			if err != nil {
				t.Fatal(err)
			}
			httpResp, _ := tap.last()
			stream := anthropicsse.NewStream[anthropicsdk.MessageStreamEventUnion](anthropicsse.NewDecoder(httpResp), nil)
			var msg anthropicsdk.Message
			for stream.Next() {
				if err := msg.Accumulate(stream.Current()); err != nil {
					t.Fatalf("anthropic-sdk-go could not accumulate: %v", err)
				}
			}
			if err := stream.Err(); err != nil {
				t.Fatalf("anthropic-sdk-go could not read the stream: %v", err)
			}
			sdk := decoded{Input: int(msg.Usage.InputTokens), Output: int(msg.Usage.OutputTokens)}
			for _, b := range msg.Content {
				switch b.Type {
				case "text":
					sdk.Content += b.Text
				case "tool_use":
					sdk.Calls = append(sdk.Calls, b.ID+"|"+b.Name+"|"+compact(b.Input))
				}
			}
			if diff := cmp.Diff(sdk, ours(resp)); diff != "" {
				t.Errorf("anthropic-sdk-go (-) and our client (+) disagree:\n%s", diff)
			}
		})
	}
}
