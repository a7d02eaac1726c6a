// Package event names what an agent run emits while it happens: the event
// names, their typed payloads and the form a listener receives.
//
// Every event is an Event{Type, Payload, Meta}, written as
// {"type", "payload", "meta"}. Types are the closed set that Names lists,
// spelled agentfootprint.<domain>.<action>; every name a run emits has a Name
// constant (AgentTurnStart, ToolsResult, FindingsPeriod, …), and payloads are
// the typed structs in this package, whose JSON keys are wire facts. Honesty events carry names, enums and counts:
// the values themselves live in the run record.
//
// Listen through the agent, which delivers each event to the listeners whose
// pattern matches it ("*", a domain wildcard such as "agentfootprint.tools.*",
// or an exact name):
//
//	stop, err := a.On("agentfootprint.tools.*", func(e event.Event) {
//		if p, ok := e.Payload.(event.ToolsStartPayload); ok {
//			fmt.Println(e.Type, p.ToolName)
//		}
//	})
//
// Listeners run synchronously, in subscription order, each isolated by
// recover: a panicking listener is reported to the others as ErrorFatal with
// stage StageObserver, and the run goes on. A listener hears only what is
// emitted after it subscribed, so subscribe before the turn starts.
// CheckPattern is the check On applies to a pattern, for callers that read
// patterns from configuration.
package event
