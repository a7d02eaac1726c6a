// Package agent runs a language model with tools and context units as a
// recorded chart on the flow engine, so every step of a turn is evidence.
//
// An *Agent is configuration only (the model, the tools, the context units,
// the layers) and is shared by every user; a *Conversation is one
// conversation's state (its history, the question it waits on, the one turn
// in flight), saved with Checkpoint and restored with LoadConversation.
//
// # Usage
//
//	status := tool.Must(tool.New("service_status", "Report a service's health.",
//		func(ctx context.Context, in struct {
//			Service string `json:"service" jsonschema:"the service to check"`
//		}) (string, error) {
//			return in.Service + " is degraded", nil
//		}))
//	a, err := agent.New(provider, // any llm.Provider; scripted.New(...) offline
//		agent.WithTools(status),
//		agent.WithSystemPrompt("You triage incidents."),
//		agent.WithMaxIterations(5))
//	if err != nil { … }
//	a.MustOn("agentfootprint.tools.*", func(e event.Event) { fmt.Println(e.Type) })
//	conv := a.NewConversation()
//	res, err := conv.Send(ctx, agent.Input{Message: "What is broken?"})
//	fmt.Println(res.Answer, res.Iterations)
//	res, err = conv.Send(ctx, agent.Input{Message: "Since when?"}) // turn 2
//	rec, _ := json.Marshal(res.Record) // format agentfootprint-go.record/4
//
// a.Run(ctx, in) is the one-shot form: a fresh conversation, one turn.
//
// # The chart
//
// One turn runs the stages seed → context → call-llm → sf-route, and the
// route sends it to tool-calls (which loops back to the loop head), wrap-up
// (one last call once the step budget is spent, with the tools declared and
// none allowed, then loops), or
// prepare-final → break-final. The loop head is a position: the first node of
// the loop body, context unless a layer mounts a subflow (a recorded
// sub-chart, such as the results layer's sf-results) before it.
// Each executed stage is one commit of the record, named stageId#n (seed#0,
// context#1, call-llm#2, …); the route's commit carries the rule that chose
// the branch.
//
// # Tools
//
// Calls run one after another in the model's order (WithParallelTools runs
// up to n at once, recorded in the model's order all the same). A tool's error or panic,
// a call to a tool that does not exist, and arguments that fail validation
// all become a tool message the model reads next; the run goes on. Each
// result is read once for what it declares it covered (the envelopes of
// package coverage: an absence, a coverage statement, a description of its
// values), which is recorded as coverageDeclared rows and events, and the
// model is served the result with those declarations in words it acts on.
// A provider error ends the run with a *RunCheckpointError holding a
// conversation checkpoint.
//
// # Layers
//
// The honesty layers are opt-in values: WithResultsLayer (a period verdict
// per call on the findings ledger, and the turn's standing in
// Result.Assessment), WithInputsLayer (who chose each ruled argument; one
// question per batch), WithTimeLayer (the turn's clock, handed to each
// call), WithLimitsBlock (what the tools covered, appended to the answer) and
// WithOutputSchema (a typed answer). The agent puts them in their declared
// order whatever the option order, and Agent.Layers names them. A plain
// agent has none and runs the same chart, with the same bytes, as before
// any existed.
//
// A tool declared with a check-in pauses before it runs until the person
// consents. Context units (package inject) are evaluated every iteration and
// placed in the system prompt or the messages; skills wait until the model
// loads them with the built-in read_skill tool. WithMaxToolResultChars caps
// what any call serves.
//
// # Pauses and conversations
//
// A tool that returns tool.Pause(data) stops the turn: Result.Paused is set,
// Conversation.Pending says what it waits for, and Conversation.Resume
// answers it without re-running the calls that ran before. A paused
// conversation affects no other conversation of the agent; its checkpoint
// carries the pause, so another process can load and resume it.
//
// # Recording
//
// Result.Record is the run record: the manifest, the chart structure,
// the commit log, the blobs (exact request and response bytes per the
// capture policy, raw tool outputs) and the events. Nothing the caller passed
// in is modified, and an Agent is safe for concurrent use by any number of
// conversations.
//
// Events are delivered while the turn runs (see Agent.On). llm.request is
// emitted when the provider returns, because it carries the hash of the
// bytes actually sent; when a token listener exists and the provider can
// stream, the llm.token deltas therefore come before it.
package agent
