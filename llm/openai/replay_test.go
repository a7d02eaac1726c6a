package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/llm/internal/wiretest"
)

// Recorded OpenAI (and OpenRouter) traffic from ../shared/fixtures/wire,
// replayed through an httptest server; the decoded replies are golden.
func TestReplayRecordedTraffic(t *testing.T) {
	files := []string{
		"langchaingo/openai__TestWithStreaming.httprr",
		"langchaingo/openai__TestFunctionCall.httprr",
		"langchaingo/openai__TestOpenRouterStreaming.httprr",
		"langchaingo/openaiclient__TestClient_CreateChatCompletionStream.httprr",
		"langchaingo/openaiclient__TestClient_FunctionCall.httprr",
		"langchaingo/agents__TestOpenAIFunctionsAgentWithHTTPRR.httprr",
	}
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			recs := wiretest.Load(t, f)
			srv := wiretest.Serve(t, recs)
			c := client(srv.URL)
			var got []wiretest.Outcome
			for _, rec := range recs {
				if bytes.Contains(rec.RequestBody, []byte(`"stream":true`)) {
					got = append(got, wiretest.Drain(t, c.Stream(context.Background(), req())))
				} else {
					got = append(got, wiretest.Summarize(c.Complete(context.Background(), req())))
				}
			}
			for i, body := range srv.Requests {
				if !json.Valid(body) || srv.Paths[i] != "/chat/completions" {
					t.Errorf("request %d to %s is not JSON: %s", i, srv.Paths[i], body)
				}
			}
			out := strings.ReplaceAll(string(wiretest.JSON(got)), srv.URL, "{base}")
			name := strings.TrimSuffix(strings.TrimPrefix(f, "langchaingo/"), ".httprr")
			wiretest.Golden(t, "replay/"+name+".json", []byte(out), *update)
		})
	}
}
