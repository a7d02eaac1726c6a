// This file holds Parts: a scenario's agent taken apart into what ablation removes (units and
// tools), every other option, and a model that replays the file's replies on every rerun.

package scenario

import (
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// Parts is what a scenario's agent is built from. Units and Tools are the pieces a rerun
// may remove; Options holds everything else (including a WithProvider's choice of model, not
// the provider itself); Provider is the model. explain.Blueprint{Units, Tools, Options} with
// Provider rebuilds the agent a stored scenario run came from.
type Parts struct {
	Units    []*inject.Unit
	Tools    []*tool.Tool
	Options  []agent.Option
	Provider llm.Provider
}

// Parts returns fresh pieces of f's agent: canned tools with their call-order counters at
// zero, and, unless WithProvider names a model, a provider that answers every request with
// the file's reply at the position of that request in the conversation (the number of
// assistant messages the request carries). Unlike the provider Run uses, it never runs out
// across reruns of the same turn, which is what ablation needs. That position is only right
// for agents that send their whole history: under a window strategy the count is short.
func (f *File) Parts(opts ...Option) (Parts, error) {
	rc := &runConfig{}
	for _, o := range opts {
		o(rc)
	}
	p, err := f.parts(&runTools{next: map[string]int{}}, rc)
	if err != nil {
		return Parts{}, err
	}
	p.Options = append(p.Options, rc.agentOpts...)
	if rc.provider == nil {
		replies := f.replies
		p.Provider = scripted.Func(func(req *llm.Request, _ int, _ int64) scripted.Reply {
			k := 0
			for _, m := range req.Messages {
				if m.Role == llm.RoleAssistant {
					k++
				}
			}
			if k >= len(replies) {
				return scripted.Reply{Err: fmt.Errorf("scenario %q: the conversation reached model call %d and the file scripts %d replies", f.name, k+1, len(replies))}
			}
			return replies[k]
		})
	}
	return p, nil
}
