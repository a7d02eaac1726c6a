// Package event names what an agent run emits while it happens and
// delivers it to listeners.
//
// Every event is an Event{Type, Payload, Meta}, written as
// {"type", "payload", "meta"}. Types are the closed set of Name constants,
// spelled agentfootprint.<domain>.<action> (AgentTurnStart, ToolsResult,
// FindingsPeriod, …); payloads are the typed structs in this package, whose
// JSON keys are wire facts. Honesty events carry names, enums and counts:
// the values themselves live in the run record.
//
// A Dispatcher (one per agent) delivers them:
//
//	var d event.Dispatcher
//	stop := d.On("agentfootprint.tools.*", func(e event.Event) {
//		fmt.Println(e.Type)
//	})
//	defer stop()
//
//	d.Emit(event.ToolsStart, func() any {
//		return event.ToolsStartPayload{ToolName: "search_logs", ToolCallID: "c1", Args: args}
//	}, meta)
//
// Listeners run synchronously, in subscription order, each isolated by
// recover. With no listener, Emit builds nothing and allocates nothing:
// subscribe before the run starts. HasListeners lets an emitter skip any
// other preparation too.
package event
