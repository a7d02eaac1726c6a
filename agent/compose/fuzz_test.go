// Fuzz target for Composition.LoadCheckpoint: any input is refused with an
// error or loads into a checkpoint naming one of the composition's agents;
// nothing panics.

package compose_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/compose"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
)

func FuzzLoadComposedCheckpoint(f *testing.F) {
	p := scripted.New(scripted.Reply{ToolCalls: []llm.ToolCall{call("q1", "ask_approval", `{"action":"rollback"}`)}})
	ops := mustNew(f, p, agent.WithID("ops"), agent.WithTools(approvalTool(f, nil)))
	comp := compose.MustNew("incident", compose.Call("ops", ops))
	res, err := comp.Run(context.Background(), agent.Input{Message: "roll back"})
	if err != nil || !res.Paused {
		f.Fatalf("seed run: paused=%v err=%v", res.Paused, err)
	}
	seed, err := json.Marshal(res.Checkpoint)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte(`{"version":1,"composition":"incident","agent":"ops"}`))
	f.Add([]byte(`{"version":1,"composition":"incident","agent":"ops","flow":{},"inner":{"flow":{}},"runs":[{"record":{}}]}`))
	f.Add([]byte(`[`))
	f.Fuzz(func(t *testing.T, data []byte) {
		cp, err := comp.LoadCheckpoint(data)
		if err != nil {
			return
		}
		if cp.Agent() != "ops" {
			t.Fatalf("loaded a checkpoint of agent %q, want ops", cp.Agent())
		}
		if _, err := json.Marshal(cp); err != nil {
			t.Fatalf("a loaded checkpoint does not encode again: %v", err)
		}
	})
}
