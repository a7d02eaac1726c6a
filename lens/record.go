// Reading the record: typed values out of commits whose values may be typed
// (a live record) or raw JSON (a decoded one), and how the run ended.

package lens

import (
	"encoding/json"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/store"
	"strings"
)

// Stage ids and state keys of the agent chart the lens reads (wire facts of
// the record).
const (
	stageSeed         = "seed"
	stageContext      = "context"
	stageCallLLM      = "call-llm"
	stageWrapUp       = "wrap-up"
	stageToolCalls    = "tool-calls"
	stagePrepareFinal = "prepare-final"

	keyUserMessage   = "userMessage"
	keyHistory       = "history"
	keyCatalog       = "contextCatalog"
	keyContextUnits  = "contextUnits"
	keyLatestContent = "llmLatestContent"
	keyToolCalls     = "llmLatestToolCalls"
	keyLLMRequest    = "llmRequest"
	keyToolResults   = "toolResults"
	keyFinalContent  = "finalContent"
	keyPausedID      = "pausedToolCallId"
	keyPausedName    = "pausedToolName"
	keyPausedArgs    = "pausedToolArgs"
	keyLedger        = "findingsLedger"
	keyCoverage      = "coverageDeclared"
)

// as converts v to T: directly when it already is one, else through its JSON
// form (a decoded record keeps values as json.RawMessage).
func as[T any](v any) (T, bool) {
	if t, ok := v.(T); ok {
		return t, true
	}
	var out T
	raw, err := json.Marshal(v)
	if err != nil {
		return out, false
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return out, false
	}
	return out, true
}

// opValue returns the value of c's last op on key, converted to T, with its
// verb.
func opValue[T any](c *flow.Commit, key string) (T, flow.Verb, bool) {
	var zero T
	for i := len(c.Ops) - 1; i >= 0; i-- {
		op := c.Ops[i]
		if op.Key != key {
			continue
		}
		v, ok := as[T](op.Value)
		return v, op.Verb, ok
	}
	return zero, "", false
}

// writes reports whether c writes key.
func writes(c *flow.Commit, key string) bool {
	for _, op := range c.Ops {
		if op.Key == key {
			return true
		}
	}
	return false
}

// finalValue returns key as of the log's last commit, converted to T.
func finalValue[T any](log *flow.Record, key string) (T, bool) {
	var zero T
	if log == nil || len(log.Commits) == 0 {
		return zero, false
	}
	v, ok, err := flow.ValueAt(log, len(log.Commits)-1, key)
	if err != nil || !ok {
		return zero, false
	}
	return as[T](v)
}

// stageOf is the stage id of a runtime stage id ("call-llm#3" → "call-llm").
func stageOf(runtimeID string) string {
	if i := strings.LastIndexByte(runtimeID, '#'); i >= 0 {
		return runtimeID[:i]
	}
	return runtimeID
}

// payloadAs decodes an event payload (typed or raw JSON) into T.
func payloadAs[T any](e event.Event) (T, bool) { return as[T](e.Payload) }

// statusOf says how the run ended, in the store's words: failed when a commit failed or a fatal
// error was emitted, paused when a call waits for a person, complete when the
// manifest says Run returned normally, else incomplete.
func statusOf(rec *record.Record) string {
	const (
		failed, paused = string(store.StatusFailed), string(store.StatusPaused)
		complete       = string(store.StatusComplete)
	)
	for _, e := range rec.Events.All() {
		if e.Type == event.ErrorFatal {
			return failed
		}
	}
	if rec.Log != nil {
		for _, c := range rec.Log.Commits {
			if c.CommitDetail != nil && c.Error != "" {
				return failed
			}
		}
		if id, ok := finalValue[string](rec.Log, keyPausedID); ok && id != "" {
			return paused
		}
	}
	if rec.Manifest.Complete {
		return complete
	}
	return string(store.StatusIncomplete)
}
