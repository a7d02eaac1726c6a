// The record builder: what a finished turn of an agent leaves behind, as
// the record.Record the turn's Result carries.

package agent

import (
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/flow"
)

func (a *Agent) record(rs *runState, log *flow.Record, from *pauseCheckpoint, complete bool) *record.Record {
	rs.mountAgentTools(log)
	m := record.Manifest{
		RunID: log.RunID, AgentID: a.cfg.id, Provider: a.provider.Name(), Model: a.cfg.model,
		Library: "agentfootprint-go " + record.LibraryVersion,
		Options: record.Settings{MaxIterations: a.cfg.maxIter, WrapUp: a.cfg.wrapUp, Capture: a.cfg.capture,
			Temperature: a.cfg.temperature, MaxTokens: a.cfg.maxTokens},
		StartedAt: rs.start.UTC().Format(time.RFC3339Nano), EndedAt: a.cfg.now().UTC().Format(time.RFC3339Nano),
		Complete: complete, TurnNumber: rs.turn, ToolNames: a.toolNames(), UnitIDs: []string{},
		AbandonedPause: rs.abandoned,
	}
	for _, u := range a.cfg.units {
		m.UnitIDs = append(m.UnitIDs, u.ID())
	}
	if m.ToolNames == nil {
		m.ToolNames = []string{}
	}
	if from != nil && from.Flow != nil {
		m.Legs = append(m.Legs, record.Leg{RunID: from.Flow.RunID})
		m.Legs = append(m.Legs, record.Leg{RunID: log.RunID, ResumedFrom: from.Flow.RunID})
	} else {
		m.Legs = []record.Leg{{RunID: log.RunID}}
	}
	a.sizes.keep(rs)
	return &record.Record{Manifest: m, Structure: a.structure(), Log: log, Blobs: rs.blobs, Requests: rs.requests, Events: rs.events, DroppedEvents: rs.dropped}
}
