// Walking a composition's record: from the composed answer back through the
// outer nodes that wrote the message, into each inner run that produced a
// step (a backtrack inside it), and out again to the outer node that gave
// that run its input.

package explain

import (
	"encoding/json"
	"fmt"
	"github.com/agentfootprint/agentfootprint-go/agent/compose"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"strings"
)

// composedFormat is the format id of a ComposedChain's JSON encoding.
const composedFormat = "agentfootprint-go.composed-backtrack/1"

// Composed hop kinds.
const (
	hopAgent   = "agent"
	hopMerge   = "merge"
	hopRemoved = "removed"
	hopInput   = "input"
)

// ComposedChain is the walk from a composition's answer to its input.
type ComposedChain struct {
	// Format is "agentfootprint-go.composed-backtrack/1".
	Format string        `json:"format"`
	Hops   []ComposedHop `json:"hops"`
}

// ComposedHop is one outer node on the walk. For an agent hop, Inner is the
// backtrack inside the inner run kept under Node (open it with
// Record.Inner(Node)); for a merge hop, Branches are the branches it
// merged; InputFrom is the outer commit that wrote the message this node
// read, the next hop of the walk; Control is the decision (a loop's or a
// router's) the node ran under.
type ComposedHop struct {
	Node string `json:"node"`
	// Kind is "agent", "merge", "removed" (a node ablation took out) or
	// "input" (the composition's input, where the walk ends).
	Kind      string        `json:"kind"`
	Agent     string        `json:"agent,omitempty"`
	Inner     *Chain        `json:"inner,omitempty"`
	Error     string        `json:"error,omitempty"`
	Branches  []ComposedHop `json:"branches,omitempty"`
	InputFrom string        `json:"inputFrom,omitempty"`
	Control   *flow.Control `json:"control,omitempty"`
}

// BacktrackComposed walks a composition's record (compose.Composition.Run)
// from its answer back to its input. A record of a plain agent is refused.
func BacktrackComposed(rec *record.Record) (*ComposedChain, error) {
	if rec == nil || rec.Log == nil || len(rec.Log.Commits) == 0 {
		return nil, ErrNoRecord
	}
	if rec.Manifest.Provider != compose.Provider {
		return nil, fmt.Errorf("explain: the record of %q is not a composition's; use Backtrack", rec.Manifest.AgentID)
	}
	log := rec.Log
	ch := &ComposedChain{Format: composedFormat, Hops: []ComposedHop{}}
	at := len(log.Commits)
	for guard := 0; guard <= len(log.Commits); guard++ {
		w, ok := flow.LastWriter(log, "message", at)
		if !ok {
			break
		}
		c := log.Commits[w]
		hop := ComposedHop{Node: c.RuntimeStageID, Control: c.Control}
		switch {
		case c.CommitDetail != nil && c.StageID == "seed":
			hop.Kind = hopInput
			ch.Hops = append(ch.Hops, hop)
			return ch, nil
		case c.CommitDetail != nil && strings.HasPrefix(c.StageID, "merge:"):
			hop.Kind = hopMerge
			group := strings.TrimPrefix(c.StageID, "merge:")
			for _, o := range outcomesAt(log, w) {
				if o.Group == group {
					hop.Branches = append(hop.Branches, innerHop(rec, o))
				}
			}
		default:
			hop = innerHop(rec, outcomeOf(log, w, c.RuntimeStageID))
			hop.Control = c.Control
		}
		if prev, ok := flow.LastWriter(log, "message", w); ok {
			hop.InputFrom = log.Commits[prev].RuntimeStageID
		}
		ch.Hops = append(ch.Hops, hop)
		at = w
	}
	return ch, nil
}

// innerHop is the hop of one inner call, with the backtrack inside it.
func innerHop(rec *record.Record, o compose.Outcome) ComposedHop {
	hop := ComposedHop{Node: o.Node, Kind: hopAgent, Agent: o.Agent, Error: o.Error}
	if o.Removed {
		hop.Kind = hopRemoved
		return hop
	}
	in, ok := rec.Inner(o.Node)
	if !ok {
		if hop.Error == "" {
			hop.Error = "the record keeps no inner run under this node"
		}
		return hop
	}
	chain, err := Backtrack(in, Target{})
	if err != nil {
		if hop.Error == "" {
			hop.Error = err.Error()
		}
		return hop
	}
	hop.Inner = chain
	return hop
}

func outcomesAt(log *flow.Record, i int) []compose.Outcome {
	v, _, _ := flow.ValueAt(log, i, "outcomes")
	switch x := v.(type) {
	case []compose.Outcome:
		return x
	case json.RawMessage: // a decoded record keeps the composition's values as JSON
		var outs []compose.Outcome
		if json.Unmarshal(x, &outs) == nil {
			return outs
		}
	}
	return nil
}

func outcomeOf(log *flow.Record, i int, node string) compose.Outcome {
	for _, o := range outcomesAt(log, i) {
		if o.Node == node {
			return o
		}
	}
	return compose.Outcome{Node: node}
}

// AblateInner is the ablation of an inner agent's tool or context unit: it
// applies specs to bp (the blueprint the inner agent called name was built
// from), builds that agent again on p, and returns comp with the call
// running it. Removing a whole inner agent is comp.Without(name).
func AblateInner(comp *compose.Composition, name string, bp Blueprint, p llm.Provider, specs ...Spec) (*compose.Composition, error) {
	out, err := Ablate(bp, specs...)
	if err != nil {
		return nil, err
	}
	a, err := out.Build(p)
	if err != nil {
		return nil, fmt.Errorf("explain: inner agent %q: %w", name, err)
	}
	return comp.Replace(name, a)
}
