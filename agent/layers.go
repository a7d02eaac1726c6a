// Seams for the honesty layers (results, inputs, time). None is armed in this
// package yet: every hook is nil and every mount list empty, so a plain agent
// runs the chart seed → context → call-llm → sf-route → … with no extra node,
// key, event or byte. Arming code fills these in New.

package agent

import (
	"encoding/json"

	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// layerHooks are the places a layer plugs into the chart's stages.
type layerHooks struct {
	// keys are extra state keys the armed layers write (toolResultsIteration,
	// honestyLayers, findingsLedger, timeLine, …).
	keys []flow.KeyDecl
	// seed runs at the end of the seed stage (run constants such as
	// honestyLayers, the time layer's clock row).
	seed func(s *flow.Scope)
	// fillArgs is dispatch step 2 (inputs layer): it returns the arguments to
	// validate and run, on a fresh object, or a refusal served as the result.
	fillArgs func(s *flow.Scope, c llm.ToolCall, t *tool.Tool, args json.RawMessage) (json.RawMessage, string)
	// callTime is dispatch step 5 (time layer): the clock handed to the tool.
	callTime func(s *flow.Scope, c llm.ToolCall) *tool.CallTime
	// batchDone runs when a batch completes, before iteration += 1 (the
	// results layer stamps toolResultsIteration here).
	batchDone func(s *flow.Scope, iteration int)
}
