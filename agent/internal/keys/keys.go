// Package keys declares the state keys only the agent chart itself reads, and the full list of
// the keys its chart declares, so that package agent (which writes them) and package
// agent/record (which types them back when it decodes a stored run) share one declaration. The
// keys other packages read as well are declared in package agent/state; the wire names here are
// spelled nowhere else.
package keys

import (
	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/llm"
)

// ChartID is the id of the agent's chart, kept in every record's log.
const ChartID = "agentfootprint.agent"

// The agent's own keys: the loop's budget and counters, the pending call of a pause, and the
// messages a turn added.
var (
	MaxIterations   = flow.Key[int]("maxIterations")
	TotalIn         = flow.Key[int]("totalInputTokens")
	TotalOut        = flow.Key[int]("totalOutputTokens")
	UsageUnreported = flow.Key[int]("usageUnreported")
	WrapUpAsked     = flow.Key[bool]("wrapUpAsked")
	StoppedEarly    = flow.Key[event.StoppedEarly]("stoppedEarly")
	LastToolResult  = flow.Key[state.ToolResult]("lastToolResult")
	PausedID        = flow.Key[string]("pausedToolCallId")
	PausedName      = flow.Key[string]("pausedToolName")
	PausedArgs      = flow.Key[llm.ToolCall]("pausedToolArgs")
	PausedStartMs   = flow.Key[int64]("pausedToolStartMs")
	NewMessages     = flow.Key[[]llm.Message]("newMessages")
)

// HonestyLayers is the results layer's mark that it was armed for the run: a record without it
// was not judged, so its standing is not folded.
var HonestyLayers = flow.Key[map[string]bool]("honestyLayers")

// The reasons of the assessment of a turn that was not folded: the agent had no results layer,
// or the turn left no record (it failed before its first stage committed).
const (
	ReasonNotArmed = "results-layer-not-armed"
	ReasonNoRecord = "no-record"
)

// All returns every key the agent chart declares before any layer adds its own, in the chart's
// order.
func All() []flow.KeyDecl {
	return []flow.KeyDecl{
		state.KeyUserMessage, state.KeyTurnNumber, MaxIterations, state.KeyHistory, state.KeyIteration,
		state.KeyCatalog, state.KeyContextUnits, state.KeyLatestContent, state.KeyLatestToolCalls, state.KeyLLMRequest,
		TotalIn, TotalOut, UsageUnreported, WrapUpAsked, StoppedEarly,
		state.KeyToolResults, LastToolResult, state.KeyCoverageDeclared, PausedID, PausedName,
		PausedArgs, PausedStartMs, state.KeyFinalContent, NewMessages,
	}
}
