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
	"github.com/agentfootprint/agentfootprint-go/event"
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
