// State keys: the wire names and Go types of everything the agent chart
// writes. The names are wire facts: a record keeps them, and explain and
// other implementations read them.

package agent

import (
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// ToolResult is one call of a batch as the record keeps it (an element of
// toolResults, and lastToolResult). The raw output is a blob, named by
// OutputRef ("sha256:<hex>"); ServedChars is the length in UTF-16 units of
// what the model read.
type ToolResult struct {
	ToolCallID  string      `json:"toolCallId"`
	ToolName    string      `json:"toolName"`
	Iteration   int         `json:"iteration"`
	Status      tool.Status `json:"status,omitempty"`
	Error       bool        `json:"error,omitempty"`
	OutputRef   string      `json:"outputRef,omitempty"`
	ServedChars int         `json:"servedChars"`
}

// ContextUnits is the value of contextUnits: every unit's outcome in one
// iteration and the history messages sent.
type ContextUnits struct {
	Iteration int            `json:"iteration"`
	Units     []inject.Entry `json:"units"`
	History   HistoryWindow  `json:"history"`
}

// HistoryWindow lists the history messages sent (by index) and those a window
// strategy evicted.
type HistoryWindow struct {
	Sent    []int     `json:"sent"`
	Evicted []Evicted `json:"evicted"`
}

// Evicted is one history message left out of a request, and why.
type Evicted struct {
	Index  int    `json:"index"`
	Reason string `json:"reason"`
}

// pausedArgs is the pending call as recorded on pause.
type pausedArgs = llm.ToolCall

var (
	kUserMessage     = flow.Key[string]("userMessage")
	kTurnNumber      = flow.Key[int]("turnNumber")
	kMaxIterations   = flow.Key[int]("maxIterations")
	kHistory         = flow.List[llm.Message]("history")
	kIteration       = flow.Key[int]("iteration")
	kCatalog         = flow.Key[[]inject.CatalogEntry]("contextCatalog")
	kContextUnits    = flow.Key[ContextUnits]("contextUnits")
	kLatestContent   = flow.Key[string]("llmLatestContent")
	kLatestToolCalls = flow.Key[[]llm.ToolCall]("llmLatestToolCalls")
	kLLMRequest      = flow.Key[LLMRequest]("llmRequest")
	kTotalIn         = flow.Key[int]("totalInputTokens")
	kTotalOut        = flow.Key[int]("totalOutputTokens")
	kUsageUnreported = flow.Key[int]("usageUnreported")
	kWrapUpAsked     = flow.Key[bool]("wrapUpAsked")
	kStoppedEarly    = flow.Key[event.StoppedEarly]("stoppedEarly")
	kToolResults     = flow.Key[[]ToolResult]("toolResults")
	kLastToolResult  = flow.Key[ToolResult]("lastToolResult")
	kCoverage        = flow.List[coverage.DeclaredCoverage]("coverageDeclared")
	kPausedID        = flow.Key[string]("pausedToolCallId")
	kPausedName      = flow.Key[string]("pausedToolName")
	kPausedArgs      = flow.Key[pausedArgs]("pausedToolArgs")
	kPausedStartMs   = flow.Key[int64]("pausedToolStartMs")
	kFinalContent    = flow.Key[string]("finalContent")
	kNewMessages     = flow.Key[[]llm.Message]("newMessages")
)

func allKeys() []flow.KeyDecl {
	return []flow.KeyDecl{
		kUserMessage, kTurnNumber, kMaxIterations, kHistory, kIteration,
		kCatalog, kContextUnits, kLatestContent, kLatestToolCalls, kLLMRequest,
		kTotalIn, kTotalOut, kUsageUnreported, kWrapUpAsked, kStoppedEarly,
		kToolResults, kLastToolResult, kCoverage, kPausedID, kPausedName,
		kPausedArgs, kPausedStartMs, kFinalContent, kNewMessages,
	}
}
