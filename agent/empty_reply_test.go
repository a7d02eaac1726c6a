package agent_test

import (
	"context"
	"errors"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
)

// A reply with no text and no tool call ends the run with an error naming the model call;
// the exchange stays on the record and the history gets no empty assistant turn.
func TestEmptyReplyIsRefusedNamingTheCall(t *testing.T) {
	p := scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{call("c1", "service_status", `{"service":"checkout"}`)}},
		scripted.Reply{Content: " \n"},
	)
	a, err := agent.New(p, agent.WithTools(statusTool(t, &counter{})))
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Run(context.Background(), agent.Input{Message: "Is checkout up?"})
	var rce *agent.RunCheckpointError
	if !errors.As(err, &rce) || !errors.Is(err, agent.ErrEmptyReply) {
		t.Fatalf("err = %v, want a *RunCheckpointError caused by ErrEmptyReply", err)
	}
	if got, want := rce.Cause.Error(), "call-llm#6 (iteration 2): scripted replied with no text and no tool call"; got != want {
		t.Errorf("cause = %q, want %q", got, want)
	}
	cv := decodeCheckpoint(t, rce.Checkpoint)
	if cv.FailurePoint == nil || cv.FailurePoint.Stage != "call-llm" {
		t.Fatalf("checkpoint failure point = %s", rce.Checkpoint)
	}
	for _, m := range cv.History {
		if m.Role == llm.RoleAssistant && m.Content == " \n" {
			t.Errorf("the empty reply entered the history: %+v", cv.History)
		}
	}
	if res == nil || res.Record == nil {
		t.Fatal("no record kept for the failed turn")
	}
}
