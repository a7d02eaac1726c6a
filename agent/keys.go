// State keys: the Go types and wire names of everything the agent chart
// writes. The names are wire facts: a record keeps them, and explain and
// other implementations read them. The keys other packages read too are
// declared in package state; the agent's own are declared once in
// agent/internal/keys, which the record decoder shares; here they get the
// short names the chart's code uses.

package agent

import (
	"github.com/agentfootprint/agentfootprint-go/agent/internal/keys"
	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/flow"
)

var (
	kUserMessage     = state.KeyUserMessage
	kTurnNumber      = state.KeyTurnNumber
	kMaxIterations   = keys.MaxIterations
	kHistory         = state.KeyHistory
	kIteration       = state.KeyIteration
	kCatalog         = state.KeyCatalog
	kContextUnits    = state.KeyContextUnits
	kLatestContent   = state.KeyLatestContent
	kLatestToolCalls = state.KeyLatestToolCalls
	kLLMRequest      = state.KeyLLMRequest
	kTotalIn         = keys.TotalIn
	kTotalOut        = keys.TotalOut
	kUsageUnreported = keys.UsageUnreported
	kWrapUpAsked     = keys.WrapUpAsked
	kStoppedEarly    = keys.StoppedEarly
	kToolResults     = state.KeyToolResults
	kLastToolResult  = keys.LastToolResult
	kCoverage        = state.KeyCoverageDeclared
	kPausedID        = keys.PausedID
	kPausedName      = keys.PausedName
	kPausedArgs      = keys.PausedArgs
	kPausedStartMs   = keys.PausedStartMs
	kFinalContent    = state.KeyFinalContent
	kNewMessages     = keys.NewMessages
)

func allKeys() []flow.KeyDecl { return keys.All() }
