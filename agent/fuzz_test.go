// Fuzz targets for the parsers of outside data: conversation checkpoints and
// records.

package agent_test

import (
	"encoding/json"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
)

func FuzzDecodeConversation(f *testing.F) {
	f.Add([]byte(`{"version":1,"runId":"r","history":[{"role":"user","content":"hi"}],"lastCompletedIteration":1,"originalInput":{"message":"hi"},"checkpointedAt":"2026-11-29T10:00:00Z"}`))
	f.Add([]byte(`{"version":1,"runId":"r","history":[{"role":"tool","content":"x"}],"lastCompletedIteration":0,"originalInput":{"message":""},"checkpointedAt":"2026-11-29T10:00:00Z","failurePoint":{"iteration":2,"phase":"llm"}}`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"history":7}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		cv, err := agent.DecodeConversation(data)
		if err != nil {
			return
		}
		// What decodes must validate and survive a round trip.
		if err := cv.Validate(); err != nil {
			t.Fatalf("decoded checkpoint does not validate: %v", err)
		}
		b, err := json.Marshal(cv)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := agent.DecodeConversation(b); err != nil {
			t.Fatalf("re-encoded checkpoint refused: %v\n%s", err, b)
		}
	})
}

func FuzzDecodeRecord(f *testing.F) {
	f.Add([]byte(`{"format":"agentfootprint-go.record/1","manifest":{},"runId":"r","chartId":"agentfootprint.agent","commits":[]}`))
	f.Add([]byte(`{"format":"agentfootprint-go.record/1","commits":[{"idx":0,"runtimeStageId":"input"}]}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := agent.DecodeRecord(data)
		if err != nil {
			return
		}
		if _, err := json.Marshal(rec); err != nil {
			t.Fatalf("decoded record does not encode: %v", err)
		}
	})
}
