// Tests that an Agent serves concurrent turns, that a Conversation takes one
// turn at a time, and that neither modifies what the caller passed in.

package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/google/go-cmp/cmp"
)

// echoModel answers every tool-less request with the person's last message
// and asks for one status call first.
func echoModel() *scripted.Provider {
	return scripted.Func(func(req *llm.Request, n int, seed int64) scripted.Reply {
		last := req.Messages[len(req.Messages)-1]
		if last.Role == llm.RoleUser {
			return scripted.Reply{ToolCalls: []llm.ToolCall{{ID: "s", Name: "service_status", Args: json.RawMessage(`{"service":"x"}`)}}}
		}
		return scripted.Reply{Content: "answer to " + req.Messages[len(req.Messages)-3].Content}
	})
}

func TestConcurrentRuns(t *testing.T) {
	a, err := agent.New(echoModel(), agent.WithTools(statusTool(t, nil)))
	if err != nil {
		t.Fatal(err)
	}
	const n = 8
	var wg sync.WaitGroup
	answers := make([]string, n)
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := a.Run(context.Background(), agent.Input{Message: fmt.Sprint("q", i)})
			errs[i] = err
			if err == nil {
				answers[i] = res.Answer
			}
		}()
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil || answers[i] != fmt.Sprint("answer to q", i) {
			t.Errorf("run %d: %q %v", i, answers[i], errs[i])
		}
	}
}

func TestSendInFlight(t *testing.T) {
	p := scripted.New(scripted.Reply{Content: "first"}, scripted.Reply{Content: "slow", Delay: 300 * time.Millisecond})
	a, _ := agent.New(p)
	conv := a.NewConversation()
	if _, err := conv.Send(context.Background(), agent.Input{Message: "hi"}); err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	go func() {
		_, err := conv.Send(context.Background(), agent.Input{Message: "again"})
		done <- err
	}()
	deadline := time.Now().Add(2 * time.Second)
	var err error
	for time.Now().Before(deadline) {
		if p.Calls() == 2 {
			_, err = conv.Send(context.Background(), agent.Input{Message: "meanwhile"})
			break
		}
		time.Sleep(time.Millisecond)
	}
	if !errors.Is(err, agent.ErrRunInFlight) {
		t.Errorf("second Send: %v, want ErrRunInFlight", err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestInputsNotMutated(t *testing.T) {
	args := json.RawMessage(`{"service":"checkout"}`)
	calls := []llm.ToolCall{{ID: "c1", Name: "service_status", Args: args}}
	replies := []scripted.Reply{{ToolCalls: calls}, {Content: "done"}}
	p := scripted.New(replies...)
	a, _ := agent.New(p, agent.WithTools(statusTool(t, nil)))
	cv := convCheckpoint{Version: 1, RunID: "r0", CheckpointedAt: "2026-11-29T10:00:00Z",
		History: []llm.Message{{Role: llm.RoleUser, Content: "earlier"}, {Role: llm.RoleAssistant, Content: "ok"}}}
	before, _ := json.Marshal(cv)
	conv := loadCheckpoint(t, a, cv)
	res, err := conv.Send(context.Background(), agent.Input{Message: "now"})
	if err != nil {
		t.Fatal(err)
	}
	after, _ := json.Marshal(cv)
	if diff := cmp.Diff(string(before), string(after)); diff != "" {
		t.Errorf("conversation changed (-before +after):\n%s", diff)
	}
	if string(args) != `{"service":"checkout"}` || calls[0].ID != "c1" {
		t.Errorf("tool call changed: %s %+v", args, calls[0])
	}
	h := res.History
	if h[0].Content != "earlier" || len(h) != 6 {
		t.Errorf("history = %+v", h)
	}
	// The result's history is the caller's: changing it (a message, or a
	// tool call's arguments) does not reach the conversation.
	h[0].Content = "changed"
	h[3].ToolCalls[0].Args[0] = '['
	if c := conv.History(); c[0].Content != "earlier" || string(c[3].ToolCalls[0].Args) != `{"service":"checkout"}` {
		t.Error("the result shares its history with the conversation")
	}
	ch := conv.History()
	if ch[0].Content != "earlier" || len(ch) != 6 {
		t.Errorf("conversation history = %+v", ch)
	}
	ch[0].Content = "changed"
	if conv.History()[0].Content != "earlier" {
		t.Error("the conversation shares its history with the caller")
	}
}

// Run hands its finished history to the caller: changing any of it (a
// message, a tool call, the bytes of its arguments) reaches neither the
// record nor a later run.
func TestRunHistoryIsTheCallersOwn(t *testing.T) {
	p := scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{call("c1", "service_status", `{"service":"checkout"}`)}},
		scripted.Reply{Content: "Checkout is degraded."})
	a, _ := agent.New(p, agent.WithTools(statusTool(t, nil)))
	res, err := a.Run(context.Background(), agent.Input{Message: "What is broken?"})
	if err != nil {
		t.Fatal(err)
	}
	before, err := json.Marshal(res.Record)
	if err != nil {
		t.Fatal(err)
	}
	h := res.History
	if len(h) != 4 || len(h[1].ToolCalls) != 1 {
		t.Fatalf("history = %+v", h)
	}
	h[0].Content = "changed"
	h[1].ToolCalls[0].Name = "other_tool"
	h[1].ToolCalls[0].Args[0] = '['
	h[2].Content = "changed"
	_ = append(h, llm.Message{Role: llm.RoleUser, Content: "appended"})
	after, _ := json.Marshal(res.Record)
	if diff := cmp.Diff(string(before), string(after)); diff != "" {
		t.Errorf("changing the result's history changed its record (-before +after):\n%s", diff)
	}
	p.Reset()
	again, err := a.Run(context.Background(), agent.Input{Message: "What is broken?"})
	if err != nil {
		t.Fatal(err)
	}
	if g := again.History; g[0].Content != "What is broken?" || string(g[1].ToolCalls[0].Args) != `{"service":"checkout"}` || g[1].ToolCalls[0].Name != "service_status" {
		t.Errorf("the next run's history = %+v", g)
	}
}
