package agent_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/internal/agenttest"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// A tool result that is not UTF-8 cannot be named by the digest of history's
// copy, since JSON does not keep its bad bytes: the record writes its raw
// output and its tools.result text as they are, and a decoded record keeps
// both.
func TestRecordKeepsAResultThatIsNotUTF8(t *testing.T) {
	dump := tool.Must(tool.New("dump", "Dump bytes.", func(context.Context, struct{}) (string, error) {
		return strings.Repeat("byte \xff ", 20), nil
	}))
	a, err := agent.New(scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{agenttest.Call("c1", "dump", `{}`)}},
		scripted.Reply{Content: "done"}), agent.WithTools(dump))
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Run(context.Background(), agent.Input{Message: "dump"})
	if err != nil {
		t.Fatal(err)
	}
	back, _ := agenttest.RoundTrip(t, res.Record)
	if len(back.Blobs) != len(res.Record.Blobs) {
		t.Errorf("decoded record has %d blobs, the run kept %d", len(back.Blobs), len(res.Record.Blobs))
	}
	for h, want := range res.Record.Blobs {
		if got, ok := back.Blob(h); !ok || string(got) != string(want) {
			t.Errorf("blob %s: decoded %q (%v), want the run's bytes", h, got, ok)
		}
	}
	found := false
	for _, e := range back.Events.All() {
		if e.Type != event.ToolsResult {
			continue
		}
		p, _ := json.Marshal(e.Payload)
		if strings.Contains(string(p), "resultRef") || !strings.Contains(string(p), `"result":"byte `) {
			t.Errorf("decoded tools.result = %s, want the result text, not a reference", p)
		}
		found = true
	}
	if !found {
		t.Error("no tools.result event in the decoded record")
	}
}
