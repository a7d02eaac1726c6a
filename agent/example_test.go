// Runnable examples: one turn, a pause and resume, a conversation's next turn.

package agent_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

type serviceIn struct {
	Service string `json:"service" jsonschema:"the service to check"`
}

// One turn on the scripted model: the model asks for a tool, reads its
// result and answers. Every stage is a commit of the record.
func ExampleAgent_Run() {
	status := tool.Must(tool.New("service_status", "Report a service's health.",
		func(ctx context.Context, in serviceIn) (string, error) { return in.Service + " is degraded", nil }))
	model := scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "service_status", Args: json.RawMessage(`{"service":"checkout"}`)}}},
		scripted.Reply{Content: "Checkout is degraded."},
	)
	a, err := agent.New(model, agent.WithTools(status), agent.WithSystemPrompt("You triage incidents."))
	if err != nil {
		panic(err)
	}
	a.On("agentfootprint.tools.result", func(e event.Event) {
		fmt.Println("tool said:", e.Payload.(event.ToolsResultPayload).Result)
	})
	res, err := a.Run(context.Background(), agent.Input{Message: "What is broken?"})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Answer, "after", res.Iterations, "iterations")
	for _, c := range res.Record.Log.Commits[1:5] {
		fmt.Print(c.RuntimeStageID, " ")
	}
	fmt.Println()
	// Output:
	// tool said: checkout is degraded
	// Checkout is degraded. after 2 iterations
	// seed#0 context#1 call-llm#2 sf-route#3
}

// A tool pauses the turn to ask a person; Resume serves the answer as the
// call's result and the turn goes on.
func ExampleConversation_Resume() {
	approve := tool.Must(tool.New("ask_approval", "Ask the operator to approve a restart.",
		func(ctx context.Context, in serviceIn) (string, error) {
			return "", tool.Pause("Restart " + in.Service + "?")
		}))
	model := scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{{ID: "q1", Name: "ask_approval", Args: json.RawMessage(`{"service":"checkout"}`)}}},
		scripted.Reply{Content: "Restarting checkout."},
	)
	a, _ := agent.New(model, agent.WithTools(approve))
	conv := a.NewConversation()
	res, _ := conv.Send(context.Background(), agent.Input{Message: "Fix checkout."})
	fmt.Println(res.Paused, res.PauseData.ToolName, res.PauseData.Data)
	res, _ = conv.Resume(context.Background(), json.RawMessage(`"yes"`))
	fmt.Println(res.Answer)
	// Output:
	// true ask_approval Restart checkout?
	// Restarting checkout.
}

// Each Send takes the conversation's next turn; turn numbers advance.
func ExampleConversation_Send() {
	model := scripted.New(scripted.Reply{Content: "Checkout."}, scripted.Reply{Content: "Yes, checkout."})
	a, _ := agent.New(model)
	a.On("agentfootprint.agent.turn_start", func(e event.Event) {
		fmt.Println("turn", e.Payload.(event.TurnStart).TurnNumber)
	})
	conv := a.NewConversation()
	conv.Send(context.Background(), agent.Input{Message: "What is broken?"})
	res, _ := conv.Send(context.Background(), agent.Input{Message: "Sure?"})
	fmt.Println(res.Answer, len(res.History))
	// Output:
	// turn 1
	// turn 2
	// Yes, checkout. 4
}
