// Runnable examples of the event form and of pattern checking.

package event_test

import (
	"encoding/json"
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/event"
)

// An event is written as {"type", "payload", "meta"}: this is the form a
// listener's json.Marshal gives and the run record keeps.
func ExampleEvent() {
	e := event.Event{
		Type:    event.AgentIterationEnd,
		Payload: event.IterationEnd{IterIndex: 1, ToolCallCount: 2},
		Meta:    event.Meta{RunID: "run-1", RuntimeStageID: "tool-calls#5", IterIndex: new(1), CompositionPath: []string{"triage"}},
	}
	b, _ := json.Marshal(e)
	fmt.Println(string(b))
	// Output:
	// {"type":"agentfootprint.agent.iteration_end","payload":{"iterIndex":1,"toolCallCount":2},"meta":{"runId":"run-1","runtimeStageId":"tool-calls#5","subflowPath":"","wallClockMs":0,"runOffsetMs":0,"iterIndex":1,"compositionPath":["triage"]}}
}

// CheckPattern refuses a pattern that can match no event.
func ExampleCheckPattern() {
	fmt.Println(event.CheckPattern("agentfootprint.tools.*"))
	fmt.Println(event.CheckPattern("tools.*") != nil)
	// Output:
	// <nil>
	// true
}
