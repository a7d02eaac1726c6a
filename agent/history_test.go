// Tests of WithHistory: a conversation started from a history of the
// caller's continues after it, saves and loads like any other, and a
// history it cannot continue from is refused by Send, naming the message.

package agent_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
)

func TestWithHistoryContinues(t *testing.T) {
	earlier := []llm.Message{{Role: llm.RoleUser, Content: "Orders from ACME are pre-approved."}, {Role: llm.RoleAssistant, Content: "Noted."}}
	p := scripted.New(scripted.Reply{Content: "Approved."})
	a := must(agent.New(p))
	conv := a.NewConversation(agent.WithHistory(earlier))
	earlier[0].Content = "changed by the caller afterwards"
	if diff := cmp.Diff([]string{"Orders from ACME are pre-approved.", "Noted."}, contents(conv.History())); diff != "" {
		t.Errorf("history before the first turn (-want +got):\n%s", diff)
	}
	// Saved before its first turn, it loads again.
	back := must(a.LoadConversation(must(conv.Checkpoint())))
	res := must(back.Send(context.Background(), agent.Input{Message: "Approve order 7?"}))
	if got := contents(p.Requests()[0].Messages); !cmp.Equal(got, []string{"Orders from ACME are pre-approved.", "Noted.", "Approve order 7?"}) {
		t.Errorf("the model saw %q", got)
	}
	if len(res.History) != 4 || res.Record.Manifest.TurnNumber != 2 {
		t.Errorf("history %d messages, turn %d; want 4 and 2", len(res.History), res.Record.Manifest.TurnNumber)
	}
}

func TestWithHistoryRefusesBadMessage(t *testing.T) {
	a := must(agent.New(scripted.New(scripted.Reply{Content: "never"})))
	for _, tc := range []struct {
		name  string
		hist  []llm.Message
		field string
	}{
		{"unknown role", []llm.Message{{Role: llm.RoleUser, Content: "hi"}, {Role: "robot", Content: "beep"}}, "history[1].role"},
		{"tool without call", []llm.Message{{Role: llm.RoleTool, Content: "42"}}, "history[0].toolCallId"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := a.NewConversation(agent.WithHistory(tc.hist)).Send(context.Background(), agent.Input{Message: "go"})
			var ce *agent.CheckpointError
			if !errors.As(err, &ce) || ce.Field != tc.field {
				t.Errorf("Send = %v, want a *CheckpointError naming %s", err, tc.field)
			}
		})
	}
}

func contents(ms []llm.Message) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Content
	}
	return out
}
