// This file holds the typed payloads of the events whose keys the spec
// fixes. JSON keys are wire facts; optional keys are omitted when unset.
// Where the spec names only some keys of an event, the others are this
// package's choice and are marked so.

package event

import "encoding/json"

// TurnStart is the payload of agent.turn_start. (Keys chosen here: the spec
// names none.)
type TurnStart struct {
	TurnIndex    int `json:"turnIndex"`    // reserved, always 0
	TurnNumber   int `json:"turnNumber"`   // the person's turns so far, this one included
	MessageChars int `json:"messageChars"` // the message's length in UTF-16 units; the text lives in the record
}

// TurnEnd is the payload of agent.turn_end.
type TurnEnd struct {
	TurnIndex         int           `json:"turnIndex"`              // reserved, always 0
	FinalContent      string        `json:"finalContent"`           // the answer as returned
	TotalInputTokens  int           `json:"totalInputTokens"`       // summed over the turn's model calls
	TotalOutputTokens int           `json:"totalOutputTokens"`      // summed over the turn's model calls
	IterationCount    int           `json:"iterationCount"`         // the iteration the turn ended in
	DurationMs        int64         `json:"durationMs"`             // wall time of the turn
	StoppedEarly      *StoppedEarly `json:"stoppedEarly,omitempty"` // set when the step budget ran out
	// AnswerAssessment and AnswerCoverage carry the honesty layers'
	// typed answers when those layers are armed; nil is omitted.
	AnswerAssessment any `json:"answerAssessment,omitempty"`
	AnswerCoverage   any `json:"answerCoverage,omitempty"` // see AnswerAssessment
}

// StoppedEarly says why a turn ended before the model finished: the
// stoppedEarly state key, mirrored on turn_end.
type StoppedEarly struct {
	Reason           string `json:"reason"`              // "max-iterations"
	Iteration        int    `json:"iteration"`           // the iteration the budget ran out in
	PendingToolCalls int    `json:"pendingToolCalls"`    // calls the model asked for that did not run
	WrappedUp        *bool  `json:"wrappedUp,omitempty"` // whether a wrap-up call was made
}

// IterationStart is the payload of agent.iteration_start. (Keys chosen
// here, after iteration_end's.)
type IterationStart struct {
	IterIndex int `json:"iterIndex"` // the iteration starting (1-based)
}

// IterationEnd is the payload of agent.iteration_end.
type IterationEnd struct {
	IterIndex     int `json:"iterIndex"`     // the iteration ending
	ToolCallCount int `json:"toolCallCount"` // calls dispatched in it (0 on the final branch)
}

// RouteDecided is the payload of agent.route_decided: the branch chosen and
// the rule label that chose it ("" for the default branch).
type RouteDecided struct {
	Chosen string `json:"chosen"`          // "tool-calls", "wrap-up" or "final"
	Label  string `json:"label,omitempty"` // the rule label, such as "model asked for tools within the step budget"
}

// Budget actions on agent.budget_exhausted.
const (
	ActionWrappedUp = "wrapped-up"
	ActionCutShort  = "cut-short"
)

// BudgetExhausted is the payload of agent.budget_exhausted.
type BudgetExhausted struct {
	Reason           string `json:"reason"`           // "max-iterations"
	Iteration        int    `json:"iteration"`        // the iteration the budget ran out in
	Limit            int    `json:"limit"`            // maxIterations
	PendingToolCalls int    `json:"pendingToolCalls"` // calls not run
	Action           string `json:"action"`           // ActionWrappedUp or ActionCutShort
}

// LLMRequestPayload is the payload of llm.request.
type LLMRequestPayload struct {
	Iteration         int        `json:"iteration"`             // the agent iteration
	Provider          string     `json:"provider"`              // the provider's name
	Model             string     `json:"model"`                 // the model asked
	SystemPromptChars int        `json:"systemPromptChars"`     // system text length, UTF-16 units
	MessagesCount     int        `json:"messagesCount"`         // messages sent
	ToolsCount        int        `json:"toolsCount"`            // tools offered
	Tools             []ToolName `json:"tools"`                 // tools offered, by name; encodes [] when nil
	RequestSha256     string     `json:"requestSha256"`         // hex SHA-256 of the exact request bytes
	RequestBytes      int        `json:"requestBytes"`          // size of the exact request bytes
	Temperature       *float64   `json:"temperature,omitempty"` // when the request set one
}

// ToolName is one entry of llm.request's tools list.
type ToolName struct {
	Name string `json:"name"` // the tool's name
}

// LLMResponsePayload is the payload of llm.response.
type LLMResponsePayload struct {
	Iteration      int    `json:"iteration"`                // the agent iteration
	Content        string `json:"content"`                  // the reply's text
	ToolCallCount  int    `json:"toolCallCount"`            // tool calls in the reply
	Usage          Usage  `json:"usage"`                    // token usage
	StopReason     string `json:"stopReason"`               // why the model stopped
	DurationMs     int64  `json:"durationMs"`               // wall time of the call
	ResponseSha256 string `json:"responseSha256,omitempty"` // hex SHA-256 of the response bytes, when kept
	ResponseID     string `json:"responseId,omitempty"`     // the provider's id for the reply, when it gave one
	ResponseModel  string `json:"responseModel,omitempty"`  // the model the provider says answered, when it said
}

// Usage is token usage as a provider reported it. Reported is false when
// the provider said nothing (the counts are then 0, not measured).
type Usage struct {
	Input      int  `json:"input"`                // input tokens
	Output     int  `json:"output"`               // output tokens
	CacheRead  *int `json:"cacheRead,omitempty"`  // input tokens read from a prompt cache
	CacheWrite *int `json:"cacheWrite,omitempty"` // input tokens written to a prompt cache
	Reasoning  *int `json:"reasoning,omitempty"`  // of the output tokens, those spent reasoning
	Reported   bool `json:"reported"`             // whether the provider reported usage
}

// LLMTokenPayload is the payload of llm.token: one streamed text delta, the
// one payload that carries model text. (Keys chosen here.)
type LLMTokenPayload struct {
	Iteration int    `json:"iteration"` // the agent iteration
	Content   string `json:"content"`   // the text delta
}

// ToolsStartPayload is the payload of tools.start.
type ToolsStartPayload struct {
	ToolName      string          `json:"toolName"`                // the tool called
	ToolCallID    string          `json:"toolCallId"`              // the provider's call id
	Args          json.RawMessage `json:"args"`                    // the model's proposal, as sent
	ParallelCount int             `json:"parallelCount,omitempty"` // calls in the batch, only when more than one
}

// ToolsProgressPayload is the payload of tools.progress.
type ToolsProgressPayload struct {
	ToolCallID string `json:"toolCallId"` // the provider's call id
	ToolName   string `json:"toolName"`   // the tool reporting
	Iteration  int    `json:"iteration"`  // the agent iteration
	Payload    any    `json:"payload"`    // what the tool passed to Progress
}

// ToolsResultPayload is the payload of tools.result.
type ToolsResultPayload struct {
	ToolCallID string `json:"toolCallId"`       // the provider's call id
	Result     string `json:"result"`           // the content served to the model, any inputs-layer note included
	Error      bool   `json:"error,omitempty"`  // the result reports a failure the run went on from
	DurationMs int64  `json:"durationMs"`       // wall time of the call
	Status     string `json:"status,omitempty"` // one of the seven statuses, when set
}

// ArgsInvalid is the payload of validation.args_invalid: names and
// keywords only, never values.
type ArgsInvalid struct {
	ToolName   string       `json:"toolName"`   // the tool called
	ToolCallID string       `json:"toolCallId"` // the provider's call id
	Iteration  int          `json:"iteration"`  // the agent iteration
	Issues     []IssueBrief `json:"issues"`     // the listed issues; encodes [] when nil
	Enforced   bool         `json:"enforced"`   // whether the call was stopped
}

// IssueBrief is one validation issue as the event carries it.
type IssueBrief struct {
	Path    string `json:"path"`    // JSON pointer of the offending value
	Keyword string `json:"keyword"` // the schema keyword that failed
}

// ResultRefused is the payload of tools.result_refused.
type ResultRefused struct {
	ToolName       string `json:"toolName"`                 // the tool called
	ToolCallID     string `json:"toolCallId"`               // the provider's call id
	Iteration      int    `json:"iteration"`                // the agent iteration
	SizeChars      int    `json:"sizeChars"`                // the served text's true size, UTF-16 units
	MaxChars       int    `json:"maxChars"`                 // the tool's ceiling
	NarrowBy       string `json:"narrowBy,omitempty"`       // the tool's advice on asking for less
	DeclaredStatus string `json:"declaredStatus,omitempty"` // the status the tool stated, replaced by invalid
}

// SemanticsDeclared is the payload of tools.semantics_declared.
type SemanticsDeclared struct {
	ToolName   string `json:"toolName"`   // the tool called
	ToolCallID string `json:"toolCallId"` // the provider's call id
	Iteration  int    `json:"iteration"`  // the agent iteration
	Semantics  any    `json:"semantics"`  // the full envelope as the coverage package recognised it
}

// FindingsPeriodPayload is the payload of findings.period.
type FindingsPeriodPayload struct {
	ToolCallID string   `json:"toolCallId"`           // the provider's call id
	ToolName   string   `json:"toolName"`             // the tool called
	Iteration  int      `json:"iteration"`            // the batch's iteration
	Turn       int      `json:"turn"`                 // the turn number
	Verdict    string   `json:"verdict"`              // the period verdict word
	TimeChecks []string `json:"timeChecks,omitempty"` // names of the time checks filed, never an instant
}

// FindingsArgumentPayload is the payload of findings.argument: names, enums
// and counts, never a value, a proposal or a quote.
type FindingsArgumentPayload struct {
	ToolCallID string `json:"toolCallId"`           // the provider's call id
	ToolName   string `json:"toolName"`             // the tool called
	Iteration  int    `json:"iteration"`            // the batch's iteration
	Turn       int    `json:"turn"`                 // the turn number
	Argument   string `json:"argument"`             // the ruled argument
	Rule       string `json:"rule"`                 // "ask" or "assume"
	Period     bool   `json:"period,omitempty"`     // the argument is the tool's Period argument
	Source     string `json:"source,omitempty"`     // who chose the value, on a filed row
	Asked      string `json:"asked,omitempty"`      // why the person is asked, on an asked row
	Proposed   bool   `json:"proposed,omitempty"`   // the row keeps the model's own value
	Free       bool   `json:"free,omitempty"`       // the answer came from a free field
	Hidden     bool   `json:"hidden,omitempty"`     // the value is hidden from print
	ValueChars *int   `json:"valueChars,omitempty"` // the value's length, only when the value is shown
}

// AnswerAssessedPayload is the payload of answer.assessed.
type AnswerAssessedPayload struct {
	Assessment string   `json:"assessment"` // the assessment id
	Standing   string   `json:"standing"`   // the standing word
	Reasons    []string `json:"reasons"`    // reason kinds; encodes [] when nil
	Checked    []Check  `json:"checked"`    // the checks that ran; encodes [] when nil
	Turn       int      `json:"turn"`       // the turn number
	Iteration  int      `json:"iteration"`  // the iteration the answer came in
}

// Check is one entry of answer.assessed's checked list.
type Check struct {
	Layer int    `json:"layer"` // the honesty layer
	Check string `json:"check"` // the check's name
	Ran   int    `json:"ran"`   // how many times it ran
	Of    int    `json:"of"`    // out of how many it could have
}

// PauseRequestPayload is the payload of pause.request.
type PauseRequestPayload struct {
	Reason     string `json:"reason"`     // why the run paused ("arguments", a tool's pause, a check-in)
	ToolCallID string `json:"toolCallId"` // the call that paused
	ToolName   string `json:"toolName"`   // its tool
}

// PauseResumePayload is the payload of pause.resume.
type PauseResumePayload struct {
	PausedDurationMs int64 `json:"pausedDurationMs"` // how long the run stayed paused
}

// StageObserver is the stage an error.fatal carries when a listener
// panicked.
const StageObserver = "observer"

// ErrorFatalPayload is the payload of error.fatal.
type ErrorFatalPayload struct {
	Error string `json:"error"` // what went wrong, in one line
	Stage string `json:"stage"` // where: a stage id, or StageObserver for a listener
	Scope string `json:"scope"` // for a listener panic, the event it was hearing
}

// ContextEvaluatedPayload is the payload of context.evaluated: ids and
// enums only.
type ContextEvaluatedPayload struct {
	Iteration     int           `json:"iteration"`     // the agent iteration
	Active        []ActiveUnit  `json:"active"`        // units that fired; encodes [] when nil
	InactiveCount int           `json:"inactiveCount"` // units that did not fire
	Dropped       []DroppedUnit `json:"dropped"`       // units a window strategy evicted; encodes [] when nil
}

// ActiveUnit is a context unit that fired, and the trigger that fired it.
type ActiveUnit struct {
	ID      string `json:"id"`      // the unit's id
	Trigger string `json:"trigger"` // the trigger kind that fired it
}

// DroppedUnit is a context unit a window strategy evicted, and why.
type DroppedUnit struct {
	ID     string `json:"id"`     // the unit's id
	Reason string `json:"reason"` // why it was dropped
}
