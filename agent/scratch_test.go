package agent_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/internal/agenttest"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
)

// The request buffers one run leaves behind are reused by the agent's next
// run: an earlier record must not change, and the next run's requests must
// hold nothing of the earlier one.
func TestReusedRequestBuffersLeaveEarlierRunsAlone(t *testing.T) {
	p := scripted.Func(func(req *llm.Request, n int, _ int64) scripted.Reply {
		last := req.Messages[len(req.Messages)-1]
		if last.Role == llm.RoleUser && n%4 != 0 {
			return scripted.Reply{ToolCalls: []llm.ToolCall{call(fmt.Sprintf("c%d", n), "service_status", `{"service":"checkout"}`)}}
		}
		if last.Role == llm.RoleTool && n%4 != 0 {
			return scripted.Reply{ToolCalls: []llm.ToolCall{call(fmt.Sprintf("c%d", n), "service_status", `{"service":"search"}`)}}
		}
		return scripted.Reply{Content: "answer " + last.Content[:min(len(last.Content), 12)]}
	})
	a, err := agent.New(p, agent.WithTools(agenttest.RatioTool()), agent.WithSystemPrompt("You triage incidents."), agent.WithMaxIterations(6))
	if err != nil {
		t.Fatal(err)
	}
	first, err := a.Run(t.Context(), agent.Input{Message: "What is broken in checkout, the long question?"})
	if err != nil {
		t.Fatal(err)
	}
	before, err := json.Marshal(first.Record)
	if err != nil {
		t.Fatal(err)
	}
	calls := p.Calls()
	if _, err := a.Run(t.Context(), agent.Input{Message: "Short?"}); err != nil {
		t.Fatal(err)
	}
	after, err := json.Marshal(first.Record)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Fatalf("the first run's record changed when the agent ran again (%d bytes, then %d)", len(before), len(after))
	}
	reqs := p.Requests()
	if len(reqs) <= calls {
		t.Fatalf("the second run made no model call (%d calls in all)", len(reqs))
	}
	second := reqs[calls]
	if len(second.Messages) != 1 || second.Messages[0].Content != "Short?" {
		t.Fatalf("the second run's first request holds %d messages (%+v), want only its own question", len(second.Messages), second.Messages)
	}
}
