package audit

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/store"
)

// A record of format 3 names each tool result by the digest of its text;
// reading it for export puts the text back, as it does for format 4.
func TestFromStoreRestoresTheResultsOfAFormat3Record(t *testing.T) {
	data, err := os.ReadFile("../explain/testdata/record-v3.json")
	if err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Format string `json:"format"`
		Events []struct {
			Type    string `json:"type"`
			Payload struct {
				ToolCallID string `json:"toolCallId"`
				ResultRef  string `json:"resultRef"`
			} `json:"payload"`
		} `json:"events"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	if raw.Format != "agentfootprint-go.record/3" {
		t.Fatalf("fixture format = %q, want record/3", raw.Format)
	}
	refs := map[string]string{} // tool call id → resultRef
	for _, e := range raw.Events {
		if e.Type == "agentfootprint.tools.result" && e.Payload.ResultRef != "" {
			refs[e.Payload.ToolCallID] = e.Payload.ResultRef
		}
	}
	if len(refs) == 0 {
		t.Fatal("the fixture has no tools.result event with a resultRef")
	}
	run, err := FromStore(&store.Run{RunInfo: store.RunInfo{ID: "v3"}, Record: data})
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, e := range run.Events {
		if e.Type != "agentfootprint.tools.result" {
			continue
		}
		p, _ := e.Payload.(map[string]any)
		if _, ok := p["resultRef"]; ok {
			t.Errorf("tools.result for %v still names its result by reference: %v", p["toolCallId"], p)
			continue
		}
		id, _ := p["toolCallId"].(string)
		ref, ok := refs[id]
		if !ok {
			continue
		}
		text, _ := p["result"].(string)
		sum := sha256.Sum256([]byte(text))
		if got := "sha256:" + hex.EncodeToString(sum[:]); got != ref {
			t.Errorf("tools.result for %s: the result put back hashes to %s, the record named %s", id, got, ref)
		}
		seen++
	}
	if seen != len(refs) {
		t.Errorf("restored %d of the %d results the record named by reference", seen, len(refs))
	}
	if !strings.HasPrefix(record.Format, recordFormatPrefix) {
		t.Errorf("record.Format %q does not begin with %q, which FromStore looks for", record.Format, recordFormatPrefix)
	}
}
