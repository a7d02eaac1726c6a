// Runnable example: a history window, and the evictions the record keeps.

package agent_test

import (
	"context"
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
)

// A window chooses the history each model call carries. Here only the
// latest message is sent; the earlier turn is evicted, and the record says
// so with the reason, so explain can list it as missing context.
func ExampleWithWindow() {
	p := scripted.New(scripted.Reply{Content: "Order 7 needs a manual review."})
	a, _ := agent.New(p, agent.WithWindow(agent.Window{LastMessages: 1}))
	conv := a.NewConversation(agent.WithHistory([]llm.Message{
		{Role: llm.RoleUser, Content: "Orders from ACME are pre-approved."},
		{Role: llm.RoleAssistant, Content: "Noted."},
	}))
	res, _ := conv.Send(context.Background(), agent.Input{Message: "Approve order 7 from ACME?"})

	i, _ := res.Record.Log.Find("context#1")
	v, _, _ := flow.ValueAt(res.Record.Log, i, "contextUnits")
	h := v.(state.ContextUnits).History
	fmt.Println("sent:", h.Sent)
	for _, e := range h.Evicted {
		fmt.Printf("evicted: history/%d (%s)\n", e.Index, e.Reason)
	}
	fmt.Println("messages in the request:", len(p.Requests()[0].Messages))
	// Output:
	// sent: [2]
	// evicted: history/0 (window)
	// evicted: history/1 (window)
	// messages in the request: 1
}
