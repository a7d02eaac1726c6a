// A paused composition's checkpoint as JSON: the outer chart's checkpoint,
// the inner agent's pause and the inner runs so far, so a composition
// paused in one process resumes in another.

package compose

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/flow"
)

// checkpointVersion is the version of the Checkpoint JSON.
const checkpointVersion = 1

// maxCheckpointBytes caps what LoadCheckpoint reads.
const maxCheckpointBytes = 64 << 20

type composedCheckpointJSON struct {
	Version     int              `json:"version"`
	Composition string           `json:"composition"`
	Agent       string           `json:"agent"`
	StartedAt   time.Time        `json:"startedAt"`
	Legs        []record.Leg     `json:"legs"`
	Flow        *flow.Checkpoint `json:"flow"`
	Inner       json.RawMessage  `json:"inner"`
	Runs        []innerRunJSON   `json:"runs"`
}

type innerRunJSON struct {
	Node   string          `json:"node"`
	Agent  string          `json:"agent"`
	Record json.RawMessage `json:"record"`
}

// MarshalJSON writes the checkpoint: version, composition, the paused
// agent, the start, the legs so far, the outer flow checkpoint, the inner
// pause and each inner run's record.
func (cp *Checkpoint) MarshalJSON() ([]byte, error) {
	j := composedCheckpointJSON{Version: checkpointVersion, Composition: cp.composition, Agent: cp.agent,
		StartedAt: cp.start.UTC(), Legs: cp.legs, Flow: cp.flow, Runs: []innerRunJSON{}}
	if cp.inner != nil {
		j.Inner = cp.inner.raw
	}
	for _, r := range cp.runs {
		b, err := json.Marshal(r.rec)
		if err != nil {
			return nil, fmt.Errorf("agent: composed checkpoint: inner run %s: %w", r.node, err)
		}
		j.Runs = append(j.Runs, innerRunJSON{Node: r.node, Agent: r.agent, Record: b})
	}
	return json.Marshal(j)
}

// LoadCheckpoint reads a checkpoint written by Checkpoint's
// MarshalJSON for this composition. It refuses, naming the field, input
// over maxCheckpointBytes, another version, another composition, a
// paused agent that is not one of its calls, and a missing or malformed
// part.
func (c *Composition) LoadCheckpoint(data []byte) (*Checkpoint, error) {
	if len(data) > maxCheckpointBytes {
		return nil, &agent.CheckpointError{Field: "", Reason: fmt.Sprintf("the checkpoint is %d bytes; the limit is %d", len(data), maxCheckpointBytes)}
	}
	var j composedCheckpointJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return nil, &agent.CheckpointError{Field: "", Reason: err.Error()}
	}
	switch {
	case j.Version != checkpointVersion:
		return nil, &agent.CheckpointError{Field: "version", Reason: fmt.Sprintf("version %d is not %d", j.Version, checkpointVersion)}
	case j.Composition != c.name:
		return nil, &agent.CheckpointError{Field: "composition", Reason: fmt.Sprintf("the checkpoint belongs to composition %q, not %q", j.Composition, c.name)}
	case c.calls[j.Agent] == nil:
		return nil, &agent.CheckpointError{Field: "agent", Reason: fmt.Sprintf("%q is not an inner agent of composition %q", j.Agent, c.name)}
	case j.Flow == nil:
		return nil, &agent.CheckpointError{Field: "flow", Reason: "missing"}
	}
	inner, err := loadPause(j.Inner, c.calls[j.Agent].a, j.StartedAt)
	if err != nil {
		return nil, err
	}
	cp := &Checkpoint{flow: j.Flow, inner: inner, agent: j.Agent, composition: c.name, legs: j.Legs, start: j.StartedAt}
	for i, r := range j.Runs {
		rec, err := record.Decode(r.Record)
		if err != nil {
			return nil, &agent.CheckpointError{Field: fmt.Sprintf("runs[%d].record", i), Reason: err.Error()}
		}
		cp.runs = append(cp.runs, innerRun{node: r.Node, agent: r.Agent, rec: rec})
	}
	return cp, nil
}

// innerPause is the inner agent's paused turn: the pause as the agent's
// conversation checkpoint keeps it (its "pause" member, written unchanged
// as the composed checkpoint's "inner") and the message the turn was asked.
type innerPause struct {
	raw     json.RawMessage
	message string
	runID   string // the paused run's
}

// pauseOf takes the paused turn out of conv's checkpoint.
func pauseOf(conv *agent.Conversation, msg string) (*innerPause, error) {
	b, err := conv.Checkpoint()
	if err != nil {
		return nil, err
	}
	var j struct {
		Pause json.RawMessage `json:"pause"`
	}
	if err := json.Unmarshal(b, &j); err != nil || len(j.Pause) == 0 || string(j.Pause) == "null" {
		return nil, fmt.Errorf("the inner conversation paused but its checkpoint holds no pause")
	}
	return pauseFrom(j.Pause, msg)
}

// conversationJSON is the conversation checkpoint (the agent's format,
// version 1, as Conversation.Checkpoint writes it) of a conversation with no
// history that waits on one paused turn: how an inner pause becomes a
// conversation to resume.
type conversationJSON struct {
	Version                int        `json:"version"`
	RunID                  string     `json:"runId"`
	History                []struct{} `json:"history"`
	LastCompletedIteration int        `json:"lastCompletedIteration"`
	OriginalInput          struct {
		Message string `json:"message"`
	} `json:"originalInput"`
	CheckpointedAt string          `json:"checkpointedAt"`
	Pause          json.RawMessage `json:"pause"`
}

// conversation restores the paused turn as a conversation of agent a, which
// validates it by field (a field of the pause is named pause.<field>).
func (p *innerPause) conversation(a *agent.Agent, at time.Time) (*agent.Conversation, error) {
	j := conversationJSON{Version: 1, RunID: p.runID, History: []struct{}{}, CheckpointedAt: at.UTC().Format(time.RFC3339Nano), Pause: p.raw}
	j.OriginalInput.Message = p.message
	b, err := json.Marshal(j)
	if err != nil {
		return nil, err
	}
	return a.LoadConversation(b)
}

// loadPause reads a composed checkpoint's inner pause and checks that agent
// a (the paused call's) can resume it; a fault is named inner.<field>.
func loadPause(raw json.RawMessage, a *agent.Agent, at time.Time) (*innerPause, error) {
	var head struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(raw, &head) != nil {
		return nil, &agent.CheckpointError{Field: "inner", Reason: "missing the inner agent's pause"}
	}
	p, err := pauseFrom(raw, head.Message)
	if err != nil {
		return nil, &agent.CheckpointError{Field: "inner", Reason: "missing the inner agent's pause"}
	}
	if _, err := p.conversation(a, at); err != nil {
		var ce *agent.CheckpointError
		if errors.As(err, &ce) && strings.HasPrefix(ce.Field, "pause") {
			return nil, &agent.CheckpointError{Field: "inner" + strings.TrimPrefix(ce.Field, "pause"), Reason: ce.Reason}
		}
		return nil, &agent.CheckpointError{Field: "inner", Reason: err.Error()}
	}
	return p, nil
}

// pauseFrom reads the paused run's id out of a pause checkpoint (its
// flow.runId), refusing one without its engine checkpoint.
func pauseFrom(raw json.RawMessage, msg string) (*innerPause, error) {
	var j struct {
		Flow *struct {
			RunID string `json:"runId"`
		} `json:"flow"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &j) != nil || j.Flow == nil {
		return nil, fmt.Errorf("the inner pause has no engine checkpoint")
	}
	return &innerPause{raw: raw, message: msg, runID: j.Flow.RunID}, nil
}
