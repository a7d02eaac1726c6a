// The agent chart: seed → [loop head] context → call-llm → sf-route →
// tool-calls | wrap-up | prepare-final → break-final (runtime.md §2.1).

package agent

import (
	"encoding/json"

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

// Route rule labels (wire facts, runtime.md §2.3).
const (
	labelToolCalls = "model asked for tools within the step budget"
	labelWrapUp    = "step budget spent with tool calls pending"
)

// chartID is the id every agent chart carries, so records and checkpoints of
// one agent decode on another built the same way.
const chartID = "agentfootprint.agent"

func buildChart(a *Agent) (*flow.Chart, string, error) {
	b := flow.NewBuilder(chartID).Keys(append(allKeys(), a.cfg.hooks.keys...)...)
	b.Stage(stageSeed, a.seedStage)
	head := stageContext
	for i, m := range a.cfg.headMounts {
		if i == 0 {
			head = m.id
		}
		b.Mount(m.id, m.chart, m.mount)
	}
	b.Stage(stageContext, a.contextStage)
	b.Stage(stageCallLLM, a.callLLMStage)
	for _, m := range a.cfg.preRouteMounts {
		b.Mount(m.id, m.chart, m.mount)
	}
	b.Decider(stageRoute, a.routeStage,
		flow.Branch(branchToolCalls).Pausable(stageToolCalls, flow.PausableFuncs{
			ExecuteFunc: a.toolCallsExecute, ResumeFunc: a.toolCallsResume,
		}).LoopTo(head),
		flow.Branch(branchWrapUp).Stage(stageWrapUp, a.wrapUpStage).LoopTo(head),
		flow.Branch(branchFinal).
			Stage(stagePrepareFinal, a.prepareFinalStage).
			Stage(stageBreakFinal, a.breakFinalStage),
	)
	c, err := b.Build()
	return c, head, err
}

// structure describes the chart for the record: its nodes in walk order,
// the route branches and the loop edges. (flow does not yet export a chart's
// JSON structure; this is the agent's own description of the chart it built.)
func (a *Agent) structure() json.RawMessage {
	type node struct {
		ID       string   `json:"id"`
		Kind     string   `json:"kind"`
		Branches []string `json:"branches,omitempty"`
	}
	type edge struct {
		From string `json:"from"`
		To   string `json:"to"`
		Kind string `json:"kind"`
	}
	var nodes []node
	var edges []edge
	add := func(id, kind string) {
		if len(nodes) > 0 {
			edges = append(edges, edge{From: nodes[len(nodes)-1].ID, To: id, Kind: "next"})
		}
		nodes = append(nodes, node{ID: id, Kind: kind})
	}
	add(stageSeed, "stage")
	for _, m := range a.cfg.headMounts {
		add(m.id, "subflow")
	}
	add(stageContext, "stage")
	add(stageCallLLM, "stage")
	for _, m := range a.cfg.preRouteMounts {
		add(m.id, "subflow")
	}
	add(stageRoute, "decider")
	nodes[len(nodes)-1].Branches = []string{branchToolCalls, branchWrapUp, branchFinal}
	nodes = append(nodes,
		node{ID: stageToolCalls, Kind: "pausable"},
		node{ID: stageWrapUp, Kind: "stage"},
		node{ID: stagePrepareFinal, Kind: "stage"},
		node{ID: stageBreakFinal, Kind: "stage"})
	edges = append(edges,
		edge{From: stageRoute, To: stageToolCalls, Kind: "branch"},
		edge{From: stageRoute, To: stageWrapUp, Kind: "branch"},
		edge{From: stageRoute, To: stagePrepareFinal, Kind: "branch"},
		edge{From: stagePrepareFinal, To: stageBreakFinal, Kind: "next"},
		edge{From: stageToolCalls, To: a.loopHead, Kind: "loop"},
		edge{From: stageWrapUp, To: a.loopHead, Kind: "loop"})
	b, _ := json.Marshal(struct {
		ChartID  string `json:"chartId"`
		LoopHead string `json:"loopHead"`
		Nodes    []node `json:"nodes"`
		Edges    []edge `json:"edges"`
	}{chartID, a.loopHead, nodes, edges})
	return b
}
