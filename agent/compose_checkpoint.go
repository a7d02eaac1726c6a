// A paused composition's checkpoint as JSON: the outer chart's checkpoint,
// the inner agent's pause and the inner runs so far, so a composition
// paused in one process resumes in another.

package agent

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/flow"
)

// ComposedCheckpointVersion is the version of the ComposedCheckpoint JSON.
const ComposedCheckpointVersion = 1

// MaxComposedCheckpointBytes caps what LoadCheckpoint reads.
const MaxComposedCheckpointBytes = 64 << 20

type composedCheckpointJSON struct {
	Version     int              `json:"version"`
	Composition string           `json:"composition"`
	Agent       string           `json:"agent"`
	StartedAt   time.Time        `json:"startedAt"`
	Legs        []record.Leg     `json:"legs"`
	Flow        *flow.Checkpoint `json:"flow"`
	Inner       *PauseCheckpoint `json:"inner"`
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
func (cp *ComposedCheckpoint) MarshalJSON() ([]byte, error) {
	j := composedCheckpointJSON{Version: ComposedCheckpointVersion, Composition: cp.composition, Agent: cp.Agent,
		StartedAt: cp.start.UTC(), Legs: cp.legs, Flow: cp.Flow, Inner: cp.Inner, Runs: []innerRunJSON{}}
	for _, r := range cp.runs {
		b, err := json.Marshal(r.res.record)
		if err != nil {
			return nil, fmt.Errorf("agent: composed checkpoint: inner run %s: %w", r.node, err)
		}
		j.Runs = append(j.Runs, innerRunJSON{Node: r.node, Agent: r.agent, Record: b})
	}
	return json.Marshal(j)
}

// LoadCheckpoint reads a checkpoint written by ComposedCheckpoint's
// MarshalJSON for this composition. It refuses, naming the field, input
// over MaxComposedCheckpointBytes, another version, another composition, a
// paused agent that is not one of its calls, and a missing or malformed
// part.
func (c *Composition) LoadCheckpoint(data []byte) (*ComposedCheckpoint, error) {
	if len(data) > MaxComposedCheckpointBytes {
		return nil, &CheckpointError{Field: "", Reason: fmt.Sprintf("the checkpoint is %d bytes; the limit is %d", len(data), MaxComposedCheckpointBytes)}
	}
	var j composedCheckpointJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return nil, &CheckpointError{Field: "", Reason: err.Error()}
	}
	switch {
	case j.Version != ComposedCheckpointVersion:
		return nil, &CheckpointError{Field: "version", Reason: fmt.Sprintf("version %d is not %d", j.Version, ComposedCheckpointVersion)}
	case j.Composition != c.name:
		return nil, &CheckpointError{Field: "composition", Reason: fmt.Sprintf("the checkpoint belongs to composition %q, not %q", j.Composition, c.name)}
	case c.calls[j.Agent] == nil:
		return nil, &CheckpointError{Field: "agent", Reason: fmt.Sprintf("%q is not an inner agent of composition %q", j.Agent, c.name)}
	case j.Flow == nil:
		return nil, &CheckpointError{Field: "flow", Reason: "missing"}
	case j.Inner == nil || j.Inner.Flow == nil:
		return nil, &CheckpointError{Field: "inner", Reason: "missing the inner agent's pause"}
	}
	cp := &ComposedCheckpoint{Flow: j.Flow, Inner: j.Inner, Agent: j.Agent, composition: c.name, legs: j.Legs, start: j.StartedAt}
	for i, r := range j.Runs {
		rec, err := record.Decode(r.Record)
		if err != nil {
			return nil, &CheckpointError{Field: fmt.Sprintf("runs[%d].record", i), Reason: err.Error()}
		}
		cp.runs = append(cp.runs, innerRun{node: r.Node, agent: r.Agent, res: &Result{record: rec, RunID: rec.Manifest.RunID}})
	}
	return cp, nil
}
