package openai

import (
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
	wiretest.Replay{
		Files:    files,
		Path:     "/chat/completions",
		New:      newClient,
		Request:  req,
		Streamed: func(_ string, rec wiretest.Recorded) bool { return wiretest.StreamFlag(rec, true) },
		Update:   *update,
	}.Run(t)
}
