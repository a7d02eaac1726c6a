package anthropic

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/internal/wiretest"
)

// Recorded Anthropic traffic from ../shared/fixtures/wire (go-vcr cassettes,
// raw SSE, httprr), replayed through an httptest server; decoded replies
// are golden.
func TestReplayRecordedTraffic(t *testing.T) {
	files := []string{
		"anthropic-sdk-go/tool_runner_basic.yaml",
		"anthropic-sdk-go/tool_runner_concurrent.yaml",
		"anthropic-sdk-go/tool_runner_next_streaming.yaml",
		"anthropic-sdk-go/tool_runner_streaming_all.yaml",
		"anthropic-sdk-go/tool_runner_tool_call_error.yaml",
		"anthropic-sdk-go/fallback-tooluse.sse",
		"anthropic-sdk-go/refusal.sse",
		"langchaingo/anthropicclient__TestClient_CreateMessage.httprr",
		"langchaingo/anthropicclient__TestClient_CreateMessageStream.httprr",
	}
	wiretest.Replay{
		Files:   files,
		Path:    "/v1/messages",
		New:     newClient,
		Request: req,
		Streamed: func(f string, rec wiretest.Recorded) bool {
			return wiretest.StreamFlag(rec, true) || filepath.Ext(f) == ".sse"
		},
		Update: *update,
	}.Run(t)
}

// The recorded "concurrent" run turned out to ask for one city per
// message: three tool_use turns, then the answer. Every call must come out
// with its toolu_ id and object arguments, and the last turn must stop.
func TestReplayToolTurns(t *testing.T) {
	recs := wiretest.Load(t, "anthropic-sdk-go/tool_runner_concurrent.yaml")
	srv := wiretest.Serve(t, recs)
	c := client(srv.URL)
	var cities []string
	for range 3 {
		resp, err := c.Complete(context.Background(), req())
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.ToolCalls) != 1 || resp.StopReason != llm.StopToolUse {
			t.Fatalf("calls = %+v stop %s", resp.ToolCalls, resp.StopReason)
		}
		tc := resp.ToolCalls[0]
		var args struct{ City string }
		if !strings.HasPrefix(tc.ID, "toolu_") || tc.ArgsError != "" || json.Unmarshal(tc.Args, &args) != nil {
			t.Fatalf("call = %+v", tc)
		}
		cities = append(cities, args.City)
	}
	if strings.Join(cities, ",") != "San Francisco,New York,London" {
		t.Errorf("cities = %v", cities)
	}
	final, err := c.Complete(context.Background(), req())
	if err != nil || final.StopReason != llm.StopEnd || !strings.Contains(final.Content, "London: Sunny 72") || final.Usage.Input != 673 {
		t.Errorf("final = %+v, %v", final, err)
	}
}
