// Fuzz targets for the parsers of outside data: conversation checkpoints (as
// LoadConversation reads them).

package agent_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
)

// FuzzLoadConversation feeds Agent.LoadConversation arbitrary bytes. What it
// refuses must be refused with an error, never a panic; what it loads must
// save again with Checkpoint and load back to the same bytes, and a loaded
// pause must answer Pending and Resume without panicking.
func FuzzLoadConversation(f *testing.F) {
	f.Add([]byte(`{"version":1,"runId":"r","history":[{"role":"user","content":"hi"}],"lastCompletedIteration":1,"originalInput":{"message":"hi"},"checkpointedAt":"2026-11-29T10:00:00Z"}`))
	f.Add([]byte(`{"version":1,"runId":"r","history":[{"role":"tool","content":"x"}],"lastCompletedIteration":0,"originalInput":{"message":""},"checkpointedAt":"2026-11-29T10:00:00Z","failurePoint":{"iteration":2,"phase":"llm"}}`))
	f.Add([]byte(`{"version":1,"runId":"","history":[],"lastCompletedIteration":0,"originalInput":{"message":""},"checkpointedAt":"2026-11-29T10:00:00Z","agent":{"id":"someone-else"}}`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"history":7}`))
	// A real paused conversation, so the pause's fields get mutated too.
	f.Add(pausedCheckpoint(f))
	// One agent serves every input: an Agent is immutable, so what one
	// input loads cannot leak into the next, and building it (its tool's
	// schema) once keeps each input's cost to the loading under test. The
	// empty script is rewound per input so its kept requests do not pile up.
	p := scripted.New()
	a, err := agent.New(p, agent.WithTools(approvalTool(f, nil)))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p.Reset()
		conv, err := a.LoadConversation(data)
		if err != nil {
			if conv != nil {
				t.Fatal("a refused checkpoint returned a conversation")
			}
			return
		}
		b, err := conv.Checkpoint()
		if err != nil {
			t.Fatalf("a loaded conversation does not save: %v", err)
		}
		back, err := a.LoadConversation(b)
		if err != nil {
			t.Fatalf("a saved conversation is refused: %v\n%s", err, b)
		}
		b2, err := back.Checkpoint()
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != string(b2) {
			t.Fatalf("save, load, save changed the checkpoint:\n%s\n%s", b, b2)
		}
		_, _, _ = conv.History(), conv.Pending(), conv.AbandonPause()
		// Whatever a loaded pause holds, resuming it ends in a result or an
		// error (ErrNotPaused, or the empty script's), not a panic.
		_, _ = back.Resume(context.Background(), json.RawMessage(`"yes"`))
	})
}

// pausedCheckpoint is the checkpoint of a conversation paused on a question.
func pausedCheckpoint(t testing.TB) []byte {
	t.Helper()
	a, err := agent.New(scripted.New(scripted.Reply{ToolCalls: []llm.ToolCall{call("q1", "ask_approval", `{"action":"restart"}`)}}),
		agent.WithTools(approvalTool(t, nil)))
	if err != nil {
		t.Fatal(err)
	}
	conv := a.NewConversation()
	if res, err := conv.Send(context.Background(), agent.Input{Message: "restart?"}); err != nil || !res.Paused {
		t.Fatalf("want a pause: %v", err)
	}
	b, err := conv.Checkpoint()
	if err != nil {
		t.Fatal(err)
	}
	return b
}
