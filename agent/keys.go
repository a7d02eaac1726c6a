// State keys: the Go types and wire names of everything the agent chart
// writes. The names are wire facts: a record keeps them, and explain and
// other implementations read them. The keys other packages read too are
// declared in package state; the rest are the agent's own and spelled here.

package agent

import (
	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/llm"
)

// The value types of the shared keys live in package state; the agent names
// them under their old names, so its API is unchanged.
type (
	// ToolResult is one call of a batch as the record keeps it (an element of
	// toolResults, and lastToolResult).
	ToolResult = state.ToolResult
	// ContextUnits is the value of contextUnits.
	ContextUnits = state.ContextUnits
	// HistoryWindow lists the history messages sent and those evicted.
	HistoryWindow = state.HistoryWindow
	// Evicted is one history message left out of a request, and why.
	Evicted = state.Evicted
)

// pausedArgs is the pending call as recorded on pause.
type pausedArgs = llm.ToolCall

var (
	kUserMessage     = state.KeyUserMessage
	kTurnNumber      = state.KeyTurnNumber
	kMaxIterations   = flow.Key[int]("maxIterations")
	kHistory         = state.KeyHistory
	kIteration       = state.KeyIteration
	kCatalog         = state.KeyCatalog
	kContextUnits    = state.KeyContextUnits
	kLatestContent   = state.KeyLatestContent
	kLatestToolCalls = state.KeyLatestToolCalls
	kLLMRequest      = state.KeyLLMRequest
	kTotalIn         = flow.Key[int]("totalInputTokens")
	kTotalOut        = flow.Key[int]("totalOutputTokens")
	kUsageUnreported = flow.Key[int]("usageUnreported")
	kWrapUpAsked     = flow.Key[bool]("wrapUpAsked")
	kStoppedEarly    = flow.Key[event.StoppedEarly]("stoppedEarly")
	kToolResults     = state.KeyToolResults
	kLastToolResult  = flow.Key[ToolResult]("lastToolResult")
	kCoverage        = state.KeyCoverageDeclared
	kPausedID        = flow.Key[string]("pausedToolCallId")
	kPausedName      = flow.Key[string]("pausedToolName")
	kPausedArgs      = flow.Key[pausedArgs]("pausedToolArgs")
	kPausedStartMs   = flow.Key[int64]("pausedToolStartMs")
	kFinalContent    = state.KeyFinalContent
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
