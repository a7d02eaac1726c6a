// Seams for the honesty layers (results, inputs, time). None is armed in this
// package yet: every hook is nil and every mount list empty, so a plain agent
// runs the chart seed → context → call-llm → sf-route → … with no extra node,
// key, event or byte. Arming code fills these in New.

package agent

import (
	"context"
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
	// honestyLayers, the ledger restored from the continued conversation,
	// the time layer's clock row). from is nil for a fresh conversation.
	// An error fails the seed stage (its writes still commit).
	seed func(s *flow.Scope, from *ConversationCheckpoint) error
	// seedRun runs after seed with the run's context (the time layer reads
	// the run's Input.Time from it to start the turn's clock).
	seedRun func(ctx context.Context, s *flow.Scope) error
	// shapeRequest runs last in building each model request: the inputs
	// layer rewrites ruled tools' served schemas, the time layer appends
	// its time line (request only, never history).
	shapeRequest func(s *flow.Scope, req *llm.Request)
	// batchAsk is tool-calls' first act (inputs layer): a pause with the
	// batch's one question, or nil to run the batch.
	batchAsk func(ctx context.Context, s *flow.Scope, b *batch) *flow.Pause
	// batchAnswer resumes tool-calls paused by batchAsk; handled is false
	// for any other pause.
	batchAnswer func(ctx context.Context, s *flow.Scope, b *batch, input json.RawMessage) (handled bool, err error)
	// pauseRefused runs when a call of a resumed batch is refused for
	// asking a second pause; it returns a sentence added to the refusal
	// (the inputs layer keeps the person's answers for the call), or "".
	pauseRefused func(s *flow.Scope, c llm.ToolCall) string
	// resumed runs first in a resumed leg (the time layer compares the
	// resume's Time with the frozen clock).
	resumed func(ctx context.Context, s *flow.Scope)
	// resultNote returns text appended after an executed call's served
	// content (the inputs layer's note on filled arguments), or "".
	resultNote func(s *flow.Scope, c llm.ToolCall) string
	// fillArgs is dispatch step 2 (inputs layer): it returns the arguments to
	// validate and run, on a fresh object, or a refusal served as the result.
	fillArgs func(s *flow.Scope, c llm.ToolCall, t *tool.Tool, args json.RawMessage) (json.RawMessage, string)
	// callTime is dispatch step 5 (time layer): the clock handed to the
	// tool, and the args to run (a library fill that drifted is redrawn).
	callTime func(s *flow.Scope, c llm.ToolCall, args json.RawMessage) (*tool.CallTime, json.RawMessage)
	// batchDone runs when a batch completes, before iteration += 1 (the
	// results layer stamps toolResultsIteration here).
	batchDone func(s *flow.Scope, iteration int)
	// prepareFinal runs in prepare-final before finalContent is written: it
	// may return a different answer (a limits block attached) and the
	// assessment and answer coverage turn_end carries (nil for none).
	prepareFinal func(s *flow.Scope, answer string) (string, FinalNotes, error)
	// exportLedger returns the findingsLedger to carry on a conversation
	// checkpoint, read from the run's record (nil for none).
	exportLedger func(rec *flow.Record) json.RawMessage
}

// FinalNotes are what armed layers add to turn_end.
type FinalNotes struct {
	Assessment     json.RawMessage
	AnswerCoverage json.RawMessage
}
