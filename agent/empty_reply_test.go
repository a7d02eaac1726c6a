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
	var empty *agent.EmptyReplyError
	if !errors.As(err, &rce) || !errors.As(err, &empty) {
		t.Fatalf("err = %v, want a *RunCheckpointError caused by *EmptyReplyError", err)
	}
	if empty.Step != "call-llm#6" || empty.Iteration != 2 || empty.Provider != "scripted" {
		t.Errorf("EmptyReplyError = %+v, want call-llm#6 at iteration 2 from scripted", empty)
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
