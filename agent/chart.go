// The agent chart: seed → [loop head] context → call-llm → sf-route →
// tool-calls | wrap-up | prepare-final → break-final. Every arrow is a flow
// stage, so every write of a turn is a commit of its record.

package agent

import (
	"context"
	"encoding/json"

	"github.com/agentfootprint/agentfootprint-go/agent/internal/keys"
	"github.com/agentfootprint/agentfootprint-go/flow"
)

// Stage ids (wire facts).
const (
	stageSeed         = "seed"
	stageContext      = "context"
	stageCallLLM      = "call-llm"
	stageRoute        = "sf-route"
	stageToolCalls    = "tool-calls"
	stageWrapUp       = "wrap-up"
	stagePrepareFinal = "prepare-final"
	stageBreakFinal   = "break-final"

	branchToolCalls = "tool-calls"
	branchWrapUp    = "wrap-up"
	branchFinal     = "final"
)

// Route rule labels: wire facts, recorded on the route's commit as the rule
// that chose the branch.
const (
	labelToolCalls = "model asked for tools within the step budget"
	labelWrapUp    = "step budget spent with tool calls pending"
)

// chartID is the id every agent chart carries, so records and checkpoints of
// one agent decode on another built the same way.
const chartID = keys.ChartID

func buildChart(a *Agent) (*flow.Chart, string, error) {
	b := flow.NewBuilder(chartID).Keys(append(allKeys(), a.seams.keys...)...)
	b.Stage(stageSeed, a.seedStage)
	head := stageContext
	for i, m := range a.seams.headMounts {
		if i == 0 {
			head = m.id
		}
		b.Mount(m.id, m.chart, m.mount)
	}
	b.Stage(stageContext, a.contextStage)
	b.Stage(stageCallLLM, a.callLLMStage)
	for _, m := range a.seams.preRoute {
		b.Mount(m.id, m.chart, m.mount)
	}
	rules := a.routeRules()
	route := func(ctx context.Context, s *flow.Scope) (*flow.Decision, error) { return a.routeStage(ctx, s, rules) }
	b.Decider(stageRoute, route, append([]*flow.Builder{
		flow.Branch(branchToolCalls).Pausable(stageToolCalls, flow.Pausable{
			Execute: a.toolCallsExecute, Resume: a.toolCallsResume,
		}).LoopTo(head),
		flow.Branch(branchWrapUp).Stage(stageWrapUp, a.wrapUpStage).LoopTo(head),
		flow.Branch(branchFinal).
			Stage(stagePrepareFinal, a.prepareFinalStage).
			Stage(stageBreakFinal, a.breakFinalStage),
	}, a.outputBranches(head)...)...,
	)
	c, err := b.Build()
	return c, head, err
}

// structure is the chart's structure for the record: flow's own description
// of the chart the agent built (nodes, edges with the loop back-edges to the
// loop head, declared keys). Every record of the agent shares the one
// encoding (capacity-clipped): a record is read-only once returned.
func (a *Agent) structure() json.RawMessage {
	return a.structureJSON[:len(a.structureJSON):len(a.structureJSON)]
}

// encodeStructure encodes the chart's structure once per agent: the chart
// never changes after New.
func encodeStructure(c *flow.Chart) json.RawMessage {
	b, err := json.Marshal(c.Structure())
	if err != nil {
		return nil // cannot happen: Structure holds strings, bools and slices only
	}
	return b
}
