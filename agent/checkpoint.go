// Checkpoints: the conversation checkpoint (JSON, version 1) that carries a
// conversation across turns and processes, and the pause checkpoint inside
// it that resumes one paused turn.

package agent

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/llm"
)

// conversationVersion is the conversation checkpoint format this package
// writes and reads.
const conversationVersion = 1

// pauseCheckpointVersion is the pause checkpoint format this package writes
// and reads.
const pauseCheckpointVersion = 1

// conversationCheckpoint is the saved form of a Conversation: the history so
// far and where it stands. Conversation.Checkpoint writes it as JSON (format
// version 1) and Agent.LoadConversation reads and validates it; a program
// keeps the bytes, and WithHistory starts a conversation from a history of
// its own.
type conversationCheckpoint struct {
	Version                int             `json:"version"`
	RunID                  string          `json:"runId"`
	History                []llm.Message   `json:"history"`
	LastCompletedIteration int             `json:"lastCompletedIteration"`
	OriginalInput          originalInput   `json:"originalInput"`
	CheckpointedAt         string          `json:"checkpointedAt"`
	Identity               json.RawMessage `json:"identity,omitempty"`
	Agent                  *agentRef       `json:"agent,omitempty"`
	FailurePoint           *failurePoint   `json:"failurePoint,omitempty"`
	FindingsLedger         json.RawMessage `json:"findingsLedger,omitempty"`
	// Pause is the paused turn the conversation waits on, or nil.
	Pause *pauseCheckpoint `json:"pause,omitempty"`
}

// originalInput is the input of the turn that produced a checkpoint.
type originalInput struct {
	Message string `json:"message"`
}

// agentRef names the agent a checkpoint came from.
type agentRef struct {
	ID string `json:"id"`
}

// failurePoint says where a failed run stopped: the iteration, the phase
// (iteration, tool, llm or unknown) and the stage ("call-llm" or a tool name,
// never a URL or a secret).
type failurePoint struct {
	Iteration int    `json:"iteration"`
	Phase     string `json:"phase"`
	Stage     string `json:"stage,omitempty"`
}

// CheckpointError refuses a checkpoint, naming the field at fault.
type CheckpointError struct {
	Field  string
	Reason string
}

// Error names the field and the reason.
func (e *CheckpointError) Error() string {
	return fmt.Sprintf("agent: checkpoint field %q: %s", e.Field, e.Reason)
}

// checkpoint makes a conversation checkpoint holding hist itself, not a
// copy: a run's history is a value of its commit log, never written once
// committed, and what reads a checkpoint's history copies it before
// changing it (Send, History, clone, Result.seal). A caller's own slice is
// copied first (WithHistory).
func (a *Agent) checkpoint(runID string, hist []llm.Message, lastIter int, message string) *conversationCheckpoint {
	if lastIter < 0 {
		lastIter = 0
	}
	return &conversationCheckpoint{
		Version: conversationVersion, RunID: runID, History: hist,
		LastCompletedIteration: lastIter, OriginalInput: originalInput{Message: message},
		CheckpointedAt: a.cfg.now().UTC().Format(time.RFC3339Nano), Agent: &agentRef{ID: a.cfg.id},
	}
}

func (c *conversationCheckpoint) clone() *conversationCheckpoint {
	cp := *c
	cp.History = cloneMessages(c.History)
	cp.Identity = append(json.RawMessage(nil), c.Identity...)
	cp.FindingsLedger = append(json.RawMessage(nil), c.FindingsLedger...)
	if c.Agent != nil {
		ag := *c.Agent
		cp.Agent = &ag
	}
	if c.FailurePoint != nil {
		fp := *c.FailurePoint
		cp.FailurePoint = &fp
	}
	return &cp
}

// decodeCheckpoint decodes and validates a conversation checkpoint. Unknown
// top-level fields are refused by name.
func decodeCheckpoint(data []byte) (*conversationCheckpoint, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, &CheckpointError{Field: "", Reason: "not a JSON object: " + err.Error()}
	}
	known := map[string]bool{"version": true, "runId": true, "history": true, "lastCompletedIteration": true,
		"originalInput": true, "checkpointedAt": true, "identity": true, "agent": true, "failurePoint": true, "findingsLedger": true, "pause": true}
	for k := range raw {
		if !known[k] {
			return nil, &CheckpointError{Field: k, Reason: "unknown field"}
		}
	}
	for _, k := range []string{"version", "runId", "history", "lastCompletedIteration", "originalInput", "checkpointedAt"} {
		if _, ok := raw[k]; !ok {
			return nil, &CheckpointError{Field: k, Reason: "missing"}
		}
	}
	var c conversationCheckpoint
	for k, v := range raw {
		var err error
		switch k {
		case "version":
			err = json.Unmarshal(v, &c.Version)
		case "runId":
			err = json.Unmarshal(v, &c.RunID)
		case "history":
			err = json.Unmarshal(v, &c.History)
		case "lastCompletedIteration":
			err = json.Unmarshal(v, &c.LastCompletedIteration)
		case "originalInput":
			err = json.Unmarshal(v, &c.OriginalInput)
		case "checkpointedAt":
			err = json.Unmarshal(v, &c.CheckpointedAt)
		case "identity":
			c.Identity = append(json.RawMessage(nil), v...)
		case "agent":
			err = json.Unmarshal(v, &c.Agent)
		case "failurePoint":
			err = json.Unmarshal(v, &c.FailurePoint)
		case "findingsLedger":
			c.FindingsLedger = append(json.RawMessage(nil), v...)
		case "pause":
			c.Pause, err = decodePause(v)
			if err != nil {
				return nil, err
			}
		}
		if err != nil {
			return nil, &CheckpointError{Field: k, Reason: err.Error()}
		}
	}
	if err := c.validate(); err != nil {
		return nil, err
	}
	return &c, nil
}

// validate checks a conversation checkpoint and names the first bad field.
func (c *conversationCheckpoint) validate() error {
	if c.Version != conversationVersion {
		return &CheckpointError{Field: "version", Reason: fmt.Sprintf("got %d, want %d", c.Version, conversationVersion)}
	}
	// A history with no run behind it (WithHistory, before the first turn)
	// has no run id; a run's progress always names its run.
	if c.RunID == "" && (c.LastCompletedIteration > 0 || c.FailurePoint != nil || c.Pause != nil) {
		return &CheckpointError{Field: "runId", Reason: "empty, but the checkpoint records a run's progress"}
	}
	if c.LastCompletedIteration < 0 {
		return &CheckpointError{Field: "lastCompletedIteration", Reason: "negative"}
	}
	if _, err := time.Parse(time.RFC3339Nano, c.CheckpointedAt); err != nil {
		return &CheckpointError{Field: "checkpointedAt", Reason: "not an RFC 3339 time"}
	}
	if err := validateHistory(c.History); err != nil {
		return err
	}
	if fp := c.FailurePoint; fp != nil {
		switch fp.Phase {
		case "iteration", "tool", "llm", "unknown":
		default:
			return &CheckpointError{Field: "failurePoint.phase", Reason: fmt.Sprintf("unknown phase %q", fp.Phase)}
		}
	}
	if err := validatePause(c.Pause); err != nil {
		return err
	}
	return validateLedger(c.FindingsLedger)
}

// validateHistory names the first message a conversation cannot continue
// from: an unknown role, or a tool message that names no call.
func validateHistory(h []llm.Message) error {
	for i, m := range h {
		switch m.Role {
		case llm.RoleSystem, llm.RoleUser, llm.RoleAssistant:
		case llm.RoleTool:
			if m.ToolCallID == "" {
				return &CheckpointError{Field: fmt.Sprintf("history[%d].toolCallId", i), Reason: "a tool message must name the call it answers"}
			}
		default:
			return &CheckpointError{Field: fmt.Sprintf("history[%d].role", i), Reason: fmt.Sprintf("unknown role %q", m.Role)}
		}
	}
	return nil
}

// decodePause decodes the paused turn a checkpoint carries, naming the field
// of the pause that does not decode (pause.flow, pause.turn, …).
func decodePause(raw json.RawMessage) (*pauseCheckpoint, error) {
	if string(raw) == "null" {
		return nil, nil
	}
	// The whole pause is decoded first; only when that fails is it split
	// into fields to name the one that does not decode, so a good pause is
	// read once rather than once per layer of decoding.
	var p pauseCheckpoint
	if err := p.UnmarshalJSON(raw); err != nil {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(raw, &fields); err != nil {
			return nil, &CheckpointError{Field: "pause", Reason: "not a JSON object"}
		}
		for _, k := range []string{"version", "flow", "message", "turn", "blobs", "requests", "events", "droppedEvents", "argumentReplies"} {
			v, ok := fields[k]
			if !ok {
				continue
			}
			one, _ := json.Marshal(map[string]json.RawMessage{k: v})
			var probe pauseCheckpoint
			if json.Unmarshal(one, &probe) != nil {
				return nil, &CheckpointError{Field: "pause." + k, Reason: "does not decode as a paused turn's " + k}
			}
		}
		return nil, &CheckpointError{Field: "pause", Reason: "does not decode as a paused turn"}
	}
	return &p, nil
}

// validatePause checks the paused turn a checkpoint carries.
func validatePause(p *pauseCheckpoint) error {
	if p == nil {
		return nil
	}
	if p.Version != pauseCheckpointVersion {
		return &CheckpointError{Field: "pause.version", Reason: fmt.Sprintf("got %d, want %d", p.Version, pauseCheckpointVersion)}
	}
	if p.Flow == nil {
		return &CheckpointError{Field: "pause.flow", Reason: "missing: a paused turn needs its engine checkpoint"}
	}
	if p.Turn < 1 {
		return &CheckpointError{Field: "pause.turn", Reason: "must be at least 1"}
	}
	if pauseInfoOf(p) == nil {
		return &CheckpointError{Field: "pause.flow.pauseData", Reason: "missing or not a pause of a tool call: the checkpoint does not say what the turn waits for"}
	}
	return nil
}

// ledgerKinds are the findings-ledger row kinds a checkpoint may carry.
var ledgerKinds = map[string]bool{
	"period": true, "argument": true,
	"clock": true, "clock-on-resume": true, "call": true, "call-window": true, "source-clock": true,
}

// validateLedger checks the checkpoint's findingsLedger: an array of objects,
// each with a known kind, a turn and an iteration. The rows' other fields
// belong to the layer that files them and are checked there.
func validateLedger(raw json.RawMessage) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var rows []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &rows); err != nil {
		return &CheckpointError{Field: "findingsLedger", Reason: "not an array of row objects"}
	}
	for i, r := range rows {
		var kind string
		if err := json.Unmarshal(r["kind"], &kind); err != nil || !ledgerKinds[kind] {
			return &CheckpointError{Field: fmt.Sprintf("findingsLedger[%d].kind", i), Reason: fmt.Sprintf("unknown row kind %s", r["kind"])}
		}
		for _, k := range []string{"turn", "iteration"} {
			var n int
			if err := json.Unmarshal(r[k], &n); err != nil || n < 0 {
				return &CheckpointError{Field: fmt.Sprintf("findingsLedger[%d].%s", i, k), Reason: "missing or not a non-negative integer"}
			}
		}
	}
	return admitLedgerRows(raw)
}

// pauseCheckpoint is the saved form of one paused turn, inside a
// conversationCheckpoint; Conversation.Resume continues it. It carries the
// engine checkpoint (state and the whole log), the turn's input, and the
// blobs and events collected before the pause so the resumed turn's record
// is complete. It encodes with encoding/json.
type pauseCheckpoint struct {
	Version int               `json:"version"`
	Flow    *flow.Checkpoint  `json:"flow"`
	Message string            `json:"message"`
	Turn    int               `json:"turn"`
	Blobs   map[string][]byte `json:"blobs,omitempty"`
	// Requests are the paused leg's request deltas (record.Record.Requests).
	Requests      map[string]record.RequestDelta `json:"requests,omitempty"`
	Events        []event.Event                  `json:"events,omitempty"`
	DroppedEvents int                            `json:"droppedEvents,omitempty"`
	// ArgumentReplies are the replies already given to the inputs layer's
	// question while it stays open (a field was asked again).
	ArgumentReplies []json.RawMessage `json:"argumentReplies,omitempty"`
}

// rawEvent decodes an event keeping its payload as the JSON it was written
// as, so a resumed record encodes it back byte for byte.
type rawEvent struct {
	Type    event.Name      `json:"type"`
	Payload json.RawMessage `json:"payload"`
	Meta    event.Meta      `json:"meta"`
}

// UnmarshalJSON reads a pause checkpoint; events keep their payloads as the
// JSON they were written as, so the resumed record encodes them unchanged.
func (p *pauseCheckpoint) UnmarshalJSON(data []byte) error {
	var j struct {
		Version       int                            `json:"version"`
		Flow          *flow.Checkpoint               `json:"flow"`
		Message       string                         `json:"message"`
		Turn          int                            `json:"turn"`
		Blobs         map[string][]byte              `json:"blobs"`
		Requests      map[string]record.RequestDelta `json:"requests"`
		Events        []rawEvent                     `json:"events"`
		DroppedEvents int                            `json:"droppedEvents"`
		Replies       []json.RawMessage              `json:"argumentReplies"`
	}
	if err := json.Unmarshal(data, &j); err != nil {
		return &CheckpointError{Field: "", Reason: err.Error()}
	}
	*p = pauseCheckpoint{Version: j.Version, Flow: j.Flow, Message: j.Message, Turn: j.Turn, Blobs: j.Blobs, Requests: j.Requests, DroppedEvents: j.DroppedEvents, ArgumentReplies: j.Replies}
	for _, e := range j.Events {
		p.Events = append(p.Events, event.Event{Type: e.Type, Payload: e.Payload, Meta: e.Meta})
	}
	return nil
}
