package ollama

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
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
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			recs := wiretest.Load(t, f)
			srv := wiretest.Serve(t, recs)
			c := client(srv.URL)
			var got []wiretest.Outcome
			for _, rec := range recs {
				if bytes.Contains(rec.RequestBody, []byte(`"stream":false`)) {
					got = append(got, wiretest.Summarize(c.Complete(context.Background(), req())))
				} else {
					got = append(got, wiretest.Drain(t, c.Stream(context.Background(), req())))
				}
			}
			for i, body := range srv.Requests {
				if !json.Valid(body) || srv.Paths[i] != "/api/chat" {
					t.Errorf("request %d to %s: %s", i, srv.Paths[i], body)
				}
			}
			name := strings.TrimSuffix(strings.TrimPrefix(f, "langchaingo/"), ".httprr")
			out := strings.ReplaceAll(string(wiretest.JSON(got)), srv.URL, "{base}")
			wiretest.Golden(t, "replay/"+name+".json", []byte(out), *update)
		})
	}
}
