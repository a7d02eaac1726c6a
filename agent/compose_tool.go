// An agent as a tool: the inner agent answers the outer model's question,
// the model is served the inner answer, and the inner run's log is kept in
// the outer record under the outer tool-call id.

package agent

import (
	"context"
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// agentToolIn is the one argument an agent tool takes.
type agentToolIn struct {
	Question string `json:"question" jsonschema:"the question for the agent, in full: it sees nothing else of this conversation"`
}

// agentToolRun is one inner turn run by an agent tool.
type agentToolRun struct {
	callID, agent string
	res           *Result
}

// AsTool offers agent a as a tool named name: the outer model asks it a
// question, the inner agent takes one turn of a fresh conversation on it,
// and the model is served the inner answer (with the inner standing when
// the inner agent folds one). The inner run's log is kept in the outer
// record's subflows under the outer tool-call id, its blobs with the outer
// blobs and its events after the outer ones (composition path: outer
// agent, inner agent). An inner failure or pause is served as the tool's
// failure, naming the inner agent; its record is kept all the same.
// Wrap it in tool.Must for a tool defined from constant inputs.
func AsTool(name, description string, a *Agent) (*tool.Tool, error) {
	if a == nil {
		return nil, fmt.Errorf("agent: AsTool(%q): the agent is nil", name)
	}
	return tool.New(name, description, func(ctx context.Context, in agentToolIn) (string, error) {
		call, _ := tool.CallFrom(ctx)
		outer := runOf(ctx)
		rs := &runState{a: a, start: a.cfg.now(), message: in.Question, turn: 1}
		id := newRunID()
		if outer != nil {
			id = call.ID
		}
		fres, ferr := a.chart.Run(withRun(ctx, rs), nil, a.runOptions(id)...)
		a.releaseScratch(rs)
		res, _, err := a.finish(rs, fres, ferr, nil, in.Question)
		if outer != nil && res != nil && res.Record != nil {
			outer.keepAgentTool(agentToolRun{callID: call.ID, agent: a.cfg.id, res: res})
		}
		switch {
		case err != nil:
			return "", fmt.Errorf("the agent %q failed: %w", a.cfg.id, err)
		case res.Paused:
			return "", fmt.Errorf("the agent %q paused to ask a person, which an agent tool cannot pass on; run it in a composition instead", a.cfg.id)
		}
		if as := res.Assessment; as.Standing != "not-assessed" {
			why := ""
			for i, r := range as.Reasons {
				if i == 0 {
					why = ": "
				} else {
					why += ", "
				}
				why += r.Reason
			}
			return fmt.Sprintf("%s\n\n(The agent %q rates this answer %s%s.)", res.Answer, a.cfg.id, as.Standing, why), nil
		}
		return res.Answer, nil
	})
}

func (rs *runState) keepAgentTool(r agentToolRun) {
	rs.mu.Lock()
	rs.agentTools = append(rs.agentTools, r)
	rs.mu.Unlock()
}

// mountAgentTools puts the agent tools' inner logs under their tool-call
// ids in log.Subflows (attached logs: no commit mounts them), their blobs
// and request deltas with the run's, and their events after the run's. It
// does nothing for a run that called no agent tool.
func (rs *runState) mountAgentTools(log *flow.Record) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if len(rs.agentTools) == 0 || log == nil {
		return
	}
	if log.Subflows == nil {
		log.Subflows = map[string]*flow.Record{}
	}
	for _, r := range rs.agentTools {
		ir := r.res.Record
		log.Subflows[r.callID] = ir.Log
		if rs.blobs == nil {
			rs.blobs = map[string][]byte{}
		}
		for k, v := range ir.Blobs {
			rs.blobs[k] = v
		}
		if len(ir.Requests) > 0 && rs.requests == nil {
			rs.requests = make(map[string]record.RequestDelta, len(ir.Requests))
		}
		for k, v := range ir.Requests {
			rs.requests[k] = v
		}
		for _, ev := range ir.Events.All() {
			ev.Meta.CompositionPath = append([]string{rs.a.cfg.id}, ev.Meta.CompositionPath...)
			rs.events.Append(ev)
		}
	}
	rs.agentTools = nil
}
