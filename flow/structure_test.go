// Tests for the chart structure: nodes, next/branch/loop/child edges, keys.

package flow_test

import (
	"testing"
)

func TestStructure(t *testing.T) {
	st := agentChart(t, 1, -1).Structure()
	golden(t, "agent-structure.json", mustJSON(t, st))
	kinds := map[string]string{}
	for _, n := range st.Nodes {
		kinds[n.ID] = n.Kind
	}
	if kinds["sf-route"] != "decider" || kinds["tool-calls"] != "pausable" || len(st.Nodes) != 6 {
		t.Errorf("nodes = %+v", st.Nodes)
	}
	var loops int
	for _, e := range st.Edges {
		if e.Kind == "loop" {
			loops++
			if e.From != "tool-calls" || e.To != "call-llm" {
				t.Errorf("loop edge = %+v", e)
			}
		}
	}
	if loops != 1 {
		t.Errorf("loop edges = %d, want 1", loops)
	}
}
