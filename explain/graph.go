// The chain as a flat graph: the same hops as nodes and edges, for tools
// that draw or diff slices.

package explain

import "slices"

// Graph is a Chain flattened: every step it names is a node, every hop an
// edge from the later step back to the earlier one.
type Graph struct {
	Nodes []GraphNode `json:"nodes"`
	Edges []GraphEdge `json:"edges"`
}

// GraphNode is one step of the record.
type GraphNode struct {
	Step   string `json:"step"`
	Commit int    `json:"commit"`
}

// GraphEdge is one hop. Kind is answer, read, landed, allowed or born; Unit
// names the suspect for the last three.
type GraphEdge struct {
	From string `json:"from"`
	To   string `json:"to"`
	Kind string `json:"kind"`
	Key  string `json:"key,omitempty"`
	Unit string `json:"unit,omitempty"`
}

// Graph returns the chain as nodes and edges, nodes ordered by commit.
func (c *Chain) Graph() Graph {
	g := Graph{Nodes: []GraphNode{}, Edges: []GraphEdge{}}
	seen := map[string]bool{}
	node := func(step string, commit int) {
		if step != "" && !seen[step] {
			seen[step] = true
			g.Nodes = append(g.Nodes, GraphNode{Step: step, Commit: commit})
		}
	}
	edge := func(e GraphEdge) {
		if e.From != "" && e.To != "" && !slices.Contains(g.Edges, e) {
			g.Edges = append(g.Edges, e)
		}
	}
	node(c.Answer.Step, c.Answer.Commit)
	if c.Answer.Via != "" {
		node(c.Answer.Via, c.Answer.ViaCommit)
		edge(GraphEdge{From: c.Answer.Via, To: c.Answer.Step, Kind: "answer", Key: c.Answer.Key})
	}
	for _, r := range c.Read {
		node(r.Writer, r.Commit)
		edge(GraphEdge{From: c.Answer.Step, To: r.Writer, Kind: "read", Key: r.Key})
	}
	for _, s := range c.Suspects {
		node(s.Landed.Step, s.Landed.Commit)
		node(s.Allowed.Step, s.Allowed.Commit)
		node(s.Born.Step, s.Born.Commit)
		edge(GraphEdge{From: c.Answer.Step, To: s.Landed.Step, Kind: "landed", Key: s.Landed.Key, Unit: s.Unit})
		edge(GraphEdge{From: s.Landed.Step, To: s.Allowed.Step, Kind: "allowed", Key: s.Allowed.Key, Unit: s.Unit})
		edge(GraphEdge{From: s.Allowed.Step, To: s.Born.Step, Kind: "born", Key: s.Born.Key, Unit: s.Unit})
		if s.Allowed.Trigger != nil {
			for _, r := range s.Allowed.Trigger.Reads {
				if r.Writer != "" {
					node(r.Writer, r.Commit)
					edge(GraphEdge{From: s.Allowed.Step, To: r.Writer, Kind: "read", Key: r.Key, Unit: s.Unit})
				}
			}
		}
	}
	slices.SortStableFunc(g.Nodes, func(a, b GraphNode) int { return a.Commit - b.Commit })
	return g
}
