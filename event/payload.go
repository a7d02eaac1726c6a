// This file holds the typed payloads of the events whose keys the spec
// fixes. JSON keys are wire facts; optional keys are omitted when unset.
// Where the spec names only some keys of an event, the others are this
// package's choice and are marked so.

package event

import "encoding/json"

// TurnStart is the payload of agent.turn_start. (Keys chosen here: the spec
// names none.)
type TurnStart struct {
	// TurnIndex is reserved and always 0.
	TurnIndex int `json:"turnIndex"`
	// TurnNumber counts the person's turns in the conversation, this
	// one included.
	TurnNumber int `json:"turnNumber"`
	// MessageChars is the length of the person's message in UTF-16
	// units (the message itself lives in the record).
	MessageChars int `json:"messageChars"`
}

// TurnEnd is the payload of agent.turn_end.
type TurnEnd struct {
	TurnIndex         int           `json:"turnIndex"`
	FinalContent      string        `json:"finalContent"`
	TotalInputTokens  int           `json:"totalInputTokens"`
	TotalOutputTokens int           `json:"totalOutputTokens"`
	IterationCount    int           `json:"iterationCount"`
	DurationMs        int64         `json:"durationMs"`
	StoppedEarly      *StoppedEarly `json:"stoppedEarly,omitempty"`
	// AnswerAssessment and AnswerCoverage carry the honesty layers'
	// typed answers when those layers are armed; nil is omitted.
	AnswerAssessment any `json:"answerAssessment,omitempty"`
	AnswerCoverage   any `json:"answerCoverage,omitempty"`
}

// StoppedEarly says why a turn ended before the model finished: the
// stoppedEarly state key, mirrored on turn_end.
type StoppedEarly struct {
	// Reason is "max-iterations".
	Reason           string `json:"reason"`
	Iteration        int    `json:"iteration"`
	PendingToolCalls int    `json:"pendingToolCalls"`
	WrappedUp        *bool  `json:"wrappedUp,omitempty"`
}

// IterationStart is the payload of agent.iteration_start. (Keys chosen
// here, after iteration_end's.)
type IterationStart struct {
	IterIndex int `json:"iterIndex"`
}

// IterationEnd is the payload of agent.iteration_end.
type IterationEnd struct {
	IterIndex     int `json:"iterIndex"`
	ToolCallCount int `json:"toolCallCount"`
}

// RouteDecided is the payload of agent.route_decided: the branch chosen and
// the rule label that chose it ("" for the default branch).
type RouteDecided struct {
	// Chosen is "tool-calls", "wrap-up" or "final".
	Chosen string `json:"chosen"`
	// Label is the rule label, such as "model asked for tools within the
	// step budget".
	Label string `json:"label,omitempty"`
}

// Budget actions on agent.budget_exhausted.
const (
	ActionWrappedUp = "wrapped-up"
	ActionCutShort  = "cut-short"
)

// BudgetExhausted is the payload of agent.budget_exhausted.
type BudgetExhausted struct {
	// Reason is "max-iterations".
	Reason           string `json:"reason"`
	Iteration        int    `json:"iteration"`
	Limit            int    `json:"limit"`
	PendingToolCalls int    `json:"pendingToolCalls"`
	// Action is ActionWrappedUp or ActionCutShort.
	Action string `json:"action"`
}

// LLMRequestPayload is the payload of llm.request.
type LLMRequestPayload struct {
	Iteration         int    `json:"iteration"`
	Provider          string `json:"provider"`
	Model             string `json:"model"`
	SystemPromptChars int    `json:"systemPromptChars"`
	MessagesCount     int    `json:"messagesCount"`
	ToolsCount        int    `json:"toolsCount"`
	// Tools lists the offered tools by name; send an empty slice, not
	// nil, when none are offered, so the key reads [].
	Tools         []ToolName `json:"tools"`
	RequestSha256 string     `json:"requestSha256"`
	RequestBytes  int        `json:"requestBytes"`
	Temperature   *float64   `json:"temperature,omitempty"`
}

// ToolName is one entry of llm.request's tools list.
type ToolName struct {
	Name string `json:"name"`
}

// LLMResponsePayload is the payload of llm.response.
type LLMResponsePayload struct {
	Iteration      int    `json:"iteration"`
	Content        string `json:"content"`
	ToolCallCount  int    `json:"toolCallCount"`
	Usage          Usage  `json:"usage"`
	StopReason     string `json:"stopReason"`
	DurationMs     int64  `json:"durationMs"`
	ResponseSha256 string `json:"responseSha256,omitempty"`
}

// Usage is token usage as a provider reported it. Reported is false when
// the provider said nothing (the counts are then 0, not measured).
type Usage struct {
	Input      int  `json:"input"`
	Output     int  `json:"output"`
	CacheRead  *int `json:"cacheRead,omitempty"`
	CacheWrite *int `json:"cacheWrite,omitempty"`
	Reported   bool `json:"reported"`
}

// LLMTokenPayload is the payload of llm.token: one streamed text delta, the
// one payload that carries model text. (Keys chosen here.)
type LLMTokenPayload struct {
	Iteration int    `json:"iteration"`
	Content   string `json:"content"`
}

// ToolsStartPayload is the payload of tools.start. Args are the model's
// proposal, as sent. ParallelCount is set only when the batch has more than
// one call.
type ToolsStartPayload struct {
	ToolName      string          `json:"toolName"`
	ToolCallID    string          `json:"toolCallId"`
	Args          json.RawMessage `json:"args"`
	ParallelCount int             `json:"parallelCount,omitempty"`
}

// ToolsProgressPayload is the payload of tools.progress.
type ToolsProgressPayload struct {
	ToolCallID string `json:"toolCallId"`
	ToolName   string `json:"toolName"`
	Iteration  int    `json:"iteration"`
	Payload    any    `json:"payload"`
}

// ToolsResultPayload is the payload of tools.result. Result is the served
// content without any inputs-layer note.
type ToolsResultPayload struct {
	ToolCallID string `json:"toolCallId"`
	Result     string `json:"result"`
	Error      bool   `json:"error,omitempty"`
	DurationMs int64  `json:"durationMs"`
	Status     string `json:"status,omitempty"`
}

// ArgsInvalid is the payload of validation.args_invalid: names and
// keywords only, never values.
type ArgsInvalid struct {
	ToolName   string       `json:"toolName"`
	ToolCallID string       `json:"toolCallId"`
	Iteration  int          `json:"iteration"`
	Issues     []IssueBrief `json:"issues"`
	Enforced   bool         `json:"enforced"`
}

// IssueBrief is one validation issue as the event carries it.
type IssueBrief struct {
	Path    string `json:"path"`
	Keyword string `json:"keyword"`
}

// ResultRefused is the payload of tools.result_refused.
type ResultRefused struct {
	ToolName       string `json:"toolName"`
	ToolCallID     string `json:"toolCallId"`
	Iteration      int    `json:"iteration"`
	SizeChars      int    `json:"sizeChars"`
	MaxChars       int    `json:"maxChars"`
	NarrowBy       string `json:"narrowBy,omitempty"`
	DeclaredStatus string `json:"declaredStatus,omitempty"`
}

// SemanticsDeclared is the payload of tools.semantics_declared. Semantics
// is the full envelope as the coverage package recognised it.
type SemanticsDeclared struct {
	ToolName   string `json:"toolName"`
	ToolCallID string `json:"toolCallId"`
	Iteration  int    `json:"iteration"`
	Semantics  any    `json:"semantics"`
}

// FindingsPeriodPayload is the payload of findings.period. TimeChecks lists
// check names only, never an instant.
type FindingsPeriodPayload struct {
	ToolCallID string   `json:"toolCallId"`
	ToolName   string   `json:"toolName"`
	Iteration  int      `json:"iteration"`
	Turn       int      `json:"turn"`
	Verdict    string   `json:"verdict"`
	TimeChecks []string `json:"timeChecks,omitempty"`
}

// FindingsArgumentPayload is the payload of findings.argument: names, enums
// and counts, never a value, a proposal or a quote.
type FindingsArgumentPayload struct {
	ToolCallID string `json:"toolCallId"`
	ToolName   string `json:"toolName"`
	Iteration  int    `json:"iteration"`
	Turn       int    `json:"turn"`
	Argument   string `json:"argument"`
	Rule       string `json:"rule"`
	Period     bool   `json:"period,omitempty"`
	Source     string `json:"source,omitempty"`
	Asked      string `json:"asked,omitempty"`
	Proposed   bool   `json:"proposed,omitempty"`
	Free       bool   `json:"free,omitempty"`
	Hidden     bool   `json:"hidden,omitempty"`
	// ValueChars is the value's length, only when the value is shown.
	ValueChars *int `json:"valueChars,omitempty"`
}

// AnswerAssessedPayload is the payload of answer.assessed.
type AnswerAssessedPayload struct {
	Assessment string   `json:"assessment"`
	Standing   string   `json:"standing"`
	Reasons    []string `json:"reasons"`
	Checked    []Check  `json:"checked"`
	Turn       int      `json:"turn"`
	Iteration  int      `json:"iteration"`
}

// Check is one entry of answer.assessed's checked list.
type Check struct {
	Layer int    `json:"layer"`
	Check string `json:"check"`
	Ran   int    `json:"ran"`
	Of    int    `json:"of"`
}

// PauseRequestPayload is the payload of pause.request.
type PauseRequestPayload struct {
	Reason     string `json:"reason"`
	ToolCallID string `json:"toolCallId"`
	ToolName   string `json:"toolName"`
}

// PauseResumePayload is the payload of pause.resume.
type PauseResumePayload struct {
	PausedDurationMs int64 `json:"pausedDurationMs"`
}

// StageObserver is the stage an error.fatal carries when a listener
// panicked.
const StageObserver = "observer"

// ErrorFatalPayload is the payload of error.fatal.
type ErrorFatalPayload struct {
	Error string `json:"error"`
	Stage string `json:"stage"`
	Scope string `json:"scope"`
}

// ContextEvaluatedPayload is the payload of context.evaluated: ids and
// enums only.
type ContextEvaluatedPayload struct {
	Iteration     int           `json:"iteration"`
	Active        []ActiveUnit  `json:"active"`
	InactiveCount int           `json:"inactiveCount"`
	Dropped       []DroppedUnit `json:"dropped"`
}

// ActiveUnit is a context unit that fired, and the trigger that fired it.
type ActiveUnit struct {
	ID      string `json:"id"`
	Trigger string `json:"trigger"`
}

// DroppedUnit is a context unit a window strategy evicted, and why.
type DroppedUnit struct {
	ID     string `json:"id"`
	Reason string `json:"reason"`
}
