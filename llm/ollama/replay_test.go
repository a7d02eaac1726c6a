package ollama

import (
	"testing"

	"github.com/agentfootprint/agentfootprint-go/llm/internal/wiretest"
)

// Recorded Ollama /api/chat traffic from ../shared/fixtures/wire, replayed
// through an httptest server; decoded replies are golden.
func TestReplayRecordedTraffic(t *testing.T) {
	files := []string{
		"langchaingo/ollamaclient__TestClient_GenerateChat.httprr",
		"langchaingo/ollamaclient__TestClient_GenerateChatStream.httprr",
		"langchaingo/ollama__TestWithStreaming.httprr",
	}
	wiretest.Replay{
		Files:    files,
		Path:     "/api/chat",
		New:      newClient,
		Request:  req,
		Streamed: func(_ string, rec wiretest.Recorded) bool { return !wiretest.StreamFlag(rec, false) },
		Update:   *update,
	}.Run(t)
}
