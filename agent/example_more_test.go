// Runnable examples: conversations across processes, the record's JSON,
// context units with their evidence, and check-ins.

package agent_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// A conversation checkpoint is plain JSON: store it anywhere and continue the
// conversation later, on an agent built the same way, with LoadConversation.
func ExampleAgent_LoadConversation() {
	a, _ := agent.New(scripted.New(scripted.Reply{Content: "Checkout is degraded."}))
	conv := a.NewConversation()
	conv.Send(context.Background(), agent.Input{Message: "What is broken?"})
	saved, _ := conv.Checkpoint()

	later, _ := agent.New(scripted.New(scripted.Reply{Content: "Still checkout."}))
	conv, err := later.LoadConversation(saved)
	if err != nil {
		panic(err)
	}
	res, _ := conv.Send(context.Background(), agent.Input{Message: "And now?"})
	fmt.Println(res.Answer, len(res.History))
	// Output:
	// Still checkout. 4
}

// Context units are evaluated every iteration; the record says which fired
// and why.
func ExampleWithUnits() {
	units := []*inject.Unit{
		inject.Must(inject.Fact("refund-window", "Refunds are accepted for 30 days.")),
		inject.Must(inject.Instruction("vip-tone", "Address the customer by name.", inject.Rule{
			Label: "customer is VIP",
			When: func(r flow.Reader) bool {
				v, _ := r.Get("userMessage")
				return v == "I am a VIP."
			},
		})),
	}
	model := scripted.New(scripted.Reply{Content: "Of course."})
	a, _ := agent.New(model, agent.WithUnits(units...))
	res, _ := a.Run(context.Background(), agent.Input{Message: "Can I return this?"})
	i, _ := res.Record.Log.Find("context#1")
	v, _, _ := flow.ValueAt(res.Record.Log, i, "contextUnits")
	for _, e := range v.(state.ContextUnits).Units {
		fmt.Println(e.ID, e.Active, e.Trigger.Kind)
	}
	fmt.Println(len(model.Requests()[0].System), "unit in the system prompt")
	// Output:
	// refund-window true always
	// vip-tone false rule
	// 1 unit in the system prompt
}

// A tool declared with a check-in waits for the person's consent before it
// runs; Resume with true (or "yes") lets it run.
func ExampleConversation_Resume_checkIn() {
	restart := tool.Must(tool.New("restart_service", "Restart a service.",
		func(ctx context.Context, in serviceIn) (string, error) { return "restarted " + in.Service, nil },
		tool.WithCheckIn(func(json.RawMessage) bool { return true })))
	model := scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{{ID: "r1", Name: "restart_service", Args: json.RawMessage(`{"service":"checkout"}`)}}},
		scripted.Reply{Content: "Done."},
	)
	a, _ := agent.New(model, agent.WithTools(restart))
	conv := a.NewConversation()
	res, _ := conv.Send(context.Background(), agent.Input{Message: "Restart checkout."})
	fmt.Println(res.PauseData.Kind, res.PauseData.ToolName)
	res, _ = conv.Resume(context.Background(), json.RawMessage(`true`))
	fmt.Println(res.Answer, model.Requests()[1].Messages[2].Content)
	// Output:
	// check-in restart_service
	// Done. restarted checkout
}
