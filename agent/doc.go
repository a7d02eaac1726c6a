// Package agent runs a language model with tools and context units as a
// recorded chart on the flow engine, so every step of a turn is evidence.
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
//	a.On("agentfootprint.tools.*", func(e event.Event) { fmt.Println(e.Type) })
//	res, err := a.Run(ctx, agent.Input{Message: "What is broken?"})
//	fmt.Println(res.Answer, res.Iterations)
//	rec, _ := json.Marshal(res.Record()) // format agentfootprint-go.record/1
//
// # The chart
//
// One turn runs the stages seed → context → call-llm → sf-route, and the
// route sends it to tool-calls (which loops back to the loop head), wrap-up
// (one tool-less call once the step budget is spent, then loops), or
// prepare-final → break-final. The loop head is a position: the first node of
// the loop body, context unless an honesty layer mounts a subflow before it.
// Each executed stage is one commit of the record, named stageId#n (seed#0,
// context#1, call-llm#2, …); the route's commit carries the rule that chose
// the branch.
//
// # Tools
//
// Calls run one after another in the model's order. A tool's error or panic,
// a call to a tool that does not exist, and arguments that fail validation
// all become a tool message the model reads next; the run goes on. Each
// result is read through coverage.ReadCoverageResult (absence, coverage and
// semantics envelopes are recorded as coverageDeclared rows and events) and
// the model is served coverage.Served of it. A provider error ends the run
// with a *RunCheckpointError holding a conversation checkpoint.
//
// A tool declared with a check-in pauses before it runs until the person
// consents. Context units (package inject) are evaluated every iteration and
// placed in the system prompt or the messages; skills wait until the model
// loads them with the built-in read_skill tool. WithMaxToolResultChars caps
// what any call serves.
//
// # Pauses and conversations
//
// A tool that returns tool.Pause(data) stops the turn: Result.Paused is set
// and Result.Checkpoint resumes it with Agent.Resume, without re-running the
// calls that ran before. Run is one turn; FollowUp takes the next turn of the
// agent's last conversation, and Input.ContinueFrom continues any
// conversation checkpoint (see Conversation).
//
// # Recording
//
// Result.Record returns the run record: the manifest, the chart structure,
// the commit log, the blobs (exact request and response bytes per the
// capture policy, raw tool outputs) and the events. Nothing the caller passed
// in is modified, and an Agent is safe for concurrent Runs.
//
// Events are delivered while the turn runs (see Agent.On). llm.request is
// emitted when the provider returns, because it carries the hash of the
// bytes actually sent; when a token listener exists and the provider can
// stream, the llm.token deltas therefore come before it.
package agent
