// A composition's record keeps each inner agent's run as a subflow of its
// log; Inner reads one back as a record of its own.

package record

import (
	"encoding/json"

	"github.com/agentfootprint/agentfootprint-go/flow"
)

// Inner returns the inner run kept under node in a composition's record (an
// outer runtime stage id such as "agent:logs#2", or an agent tool's call
// id) as a record of its own: the inner log, the shared blobs and request
// deltas (so every inner request body rebuilds), the inner run's events,
// and the outer manifest with the inner run id and the inner agent's name.
// explain reads it like any agent record.
func (r *Record) Inner(node string) (*Record, bool) {
	if r == nil || r.Log == nil {
		return nil, false
	}
	sub, ok := r.Log.Subflows[node]
	if !ok || sub == nil {
		return nil, false
	}
	if rawValues(sub) {
		// A decoded record keeps inner values as JSON: type them by the
		// agent's keys, as Decode does for a single agent's log.
		if b, err := json.Marshal(sub); err == nil {
			if typed, err := decodeChart().DecodeRecord(b); err == nil {
				sub = typed
			}
		}
	}
	m := r.Manifest
	m.RunID, m.Legs, m.Provider = sub.RunID, []Leg{{RunID: sub.RunID}}, ""
	var evs Events
	for _, ev := range r.Events.All() {
		if ev.Meta.RunID == sub.RunID {
			evs.Append(ev)
			if p := ev.Meta.CompositionPath; len(p) > 0 {
				m.AgentID = p[len(p)-1]
			}
		}
	}
	return &Record{Manifest: m, Log: sub, Blobs: r.Blobs, Requests: r.Requests, Events: evs}, true
}

// rawValues reports a log whose values are still JSON (a decoded record's
// subflow, which the decoder could not type).
func rawValues(log *flow.Record) bool {
	for _, c := range log.Commits {
		for _, op := range c.Ops {
			if _, ok := op.Value.(json.RawMessage); ok {
				return true
			}
		}
	}
	return false
}
