// A conversation's caller identity is stamped on every event of its turns
// and kept in its checkpoint, so one listener on Agent.On can tell the
// conversations of a shared Agent apart.

package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/internal/agenttest"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
)

func TestIdentityOnEventsAndCheckpoint(t *testing.T) {
	a := must(agent.New(scripted.New(scripted.Reply{Content: "one"}, scripted.Reply{Content: "two"})))
	var mu sync.Mutex
	seen := map[string]int{}
	a.MustOn("*", func(e event.Event) {
		mu.Lock()
		defer mu.Unlock()
		seen[e.Meta.SessionID+"|"+e.Meta.Tenant]++
	})
	id := agent.Identity{SessionID: "conv-1", Principal: "ana", Tenant: "acme"}
	conv := a.NewConversation(agent.WithIdentity(id))
	res := must(conv.Send(context.Background(), agent.Input{Message: "hi"}))
	if len(seen) != 1 || seen["conv-1|acme"] == 0 {
		t.Fatalf("events by identity = %v, want all of them on conv-1/acme", seen)
	}
	for _, e := range res.Record.Events.All() {
		if e.Meta.SessionID != "conv-1" || e.Meta.Principal != "ana" || e.Meta.Tenant != "acme" {
			t.Fatalf("recorded event %s has meta %+v", e.Type, e.Meta)
		}
	}
	b := must(conv.Checkpoint())
	var cp convCheckpoint
	if err := json.Unmarshal(b, &cp); err != nil || string(cp.Identity) != `{"sessionId":"conv-1","principal":"ana","tenant":"acme"}` {
		t.Fatalf("checkpoint identity = %s (%v)", cp.Identity, err)
	}
	back := must(a.LoadConversation(b))
	if back.Identity() != id {
		t.Errorf("loaded identity = %+v, want %+v", back.Identity(), id)
	}
	// An unnamed conversation stamps nothing.
	plain := must(a.NewConversation().Send(context.Background(), agent.Input{Message: "hi"}))
	if m := plain.Record.Events.At(0).Meta; m.SessionID != "" || m.Tenant != "" {
		t.Errorf("an unnamed conversation's event meta %+v", m)
	}
	// A checkpoint whose identity is not an object is refused naming it.
	var raw map[string]json.RawMessage
	_ = json.Unmarshal(b, &raw)
	raw["identity"] = json.RawMessage(`"conv-1"`)
	bad, _ := json.Marshal(raw)
	var ce *agent.CheckpointError
	if _, err := a.LoadConversation(bad); !errors.As(err, &ce) || ce.Field != "identity" {
		t.Errorf("LoadConversation of a string identity: %v, want a refusal naming identity", err)
	}
}

// Calls run side by side (WithParallelTools) report from goroutines of their
// own; their events carry the conversation's identity like every other.
func TestIdentityOnParallelCallEvents(t *testing.T) {
	p := scripted.New(scripted.Reply{ToolCalls: []llm.ToolCall{
		call("a", "service_status", `{"service":"checkout"}`), call("b", "service_status", `{"service":"search"}`)}},
		scripted.Reply{Content: "Both are up."})
	a := must(agent.New(p, agent.WithTools(agenttest.RatioTool()), agent.WithParallelTools(2)))
	id := agent.Identity{SessionID: "conv-7", Principal: "ana", Tenant: "acme"}
	res := must(a.NewConversation(agent.WithIdentity(id)).Send(context.Background(), agent.Input{Message: "hi"}))
	calls := 0
	for _, e := range res.Record.Events.All() {
		if e.Type == event.ToolsStart || e.Type == event.ToolsResult {
			calls++
		}
		if e.Meta.SessionID != id.SessionID || e.Meta.Principal != id.Principal || e.Meta.Tenant != id.Tenant {
			t.Errorf("event %s of %s has identity %q/%q/%q, want %+v", e.Type, e.Meta.RuntimeStageID,
				e.Meta.SessionID, e.Meta.Principal, e.Meta.Tenant, id)
		}
	}
	if calls != 4 {
		t.Errorf("%d tools.start and tools.result events, want 4", calls)
	}
}
