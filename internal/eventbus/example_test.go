// Runnable examples of subscription, lazy payloads and panic isolation.

package eventbus_test

import (
	"encoding/json"
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/internal/eventbus"
)

// Subscribe by exact name, domain wildcard or "*"; On returns the
// unsubscribe func.
func ExampleDispatcher_On() {
	var d eventbus.Dispatcher
	stop := d.On("agentfootprint.tools.*", func(e event.Event) { fmt.Println("tools:", e.Type) })
	d.On(string(event.AgentTurnEnd), func(e event.Event) { fmt.Println("exact:", e.Type) })

	d.Emit(event.ToolsStart, nil, event.Meta{})
	d.Emit(event.AgentTurnEnd, nil, event.Meta{})
	stop()
	d.Emit(event.ToolsResult, nil, event.Meta{})
	// Output:
	// tools: agentfootprint.tools.start
	// exact: agentfootprint.agent.turn_end
}

// The payload builder runs only when someone listens.
func ExampleDispatcher_Emit() {
	var d eventbus.Dispatcher
	build := func() any {
		fmt.Println("building payload")
		return event.IterationEnd{IterIndex: 1, ToolCallCount: 2}
	}
	d.Emit(event.AgentIterationEnd, build, event.Meta{}) // nobody listens: nothing built

	d.On("*", func(e event.Event) {
		b, _ := json.Marshal(e)
		fmt.Println(string(b))
	})
	d.Emit(event.AgentIterationEnd, build, event.Meta{RunID: "run-1", RuntimeStageID: "tool-calls#5", IterIndex: new(1), CompositionPath: []string{"triage"}})
	// Output:
	// building payload
	// {"type":"agentfootprint.agent.iteration_end","payload":{"iterIndex":1,"toolCallCount":2},"meta":{"runId":"run-1","runtimeStageId":"tool-calls#5","subflowPath":"","wallClockMs":0,"runOffsetMs":0,"iterIndex":1,"compositionPath":["triage"]}}
}

// A panicking listener never breaks the run: the others hear of it as
// agentfootprint.error.fatal with stage "observer".
func ExampleDispatcher_Emit_panic() {
	var d eventbus.Dispatcher
	d.On(string(event.LLMToken), func(event.Event) { panic("listener bug") })
	d.On(string(event.ErrorFatal), func(e event.Event) {
		p := e.Payload.(event.ErrorFatalPayload)
		fmt.Println(p.Stage, p.Scope)
	})
	d.Emit(event.LLMToken, nil, event.Meta{})
	fmt.Println("panics:", d.Panics())
	// Output:
	// observer agentfootprint.llm.token
	// panics: 1
}

// HasListeners lets an emitter skip all preparation.
func ExampleDispatcher_HasListeners() {
	var d eventbus.Dispatcher
	fmt.Println(d.HasListeners(event.FindingsPeriod))
	d.On("agentfootprint.findings.*", func(event.Event) {})
	fmt.Println(d.HasListeners(event.FindingsPeriod), d.HasListeners(event.AnswerAssessed))
	// Output:
	// false
	// true false
}
