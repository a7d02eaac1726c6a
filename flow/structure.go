// The chart's structure as data: nodes, edges, loop edges and declared keys,
// for records, viewers and documentation.

package flow

import "reflect"

// Structure describes a chart: its nodes in build order, the edges between
// them and its declared keys. It encodes to JSON as is.
type Structure struct {
	ChartID string          `json:"chartId"`
	Nodes   []StructureNode `json:"nodes"`
	Edges   []StructureEdge `json:"edges"`
	Keys    []StructureKey  `json:"keys"`
}

// StructureNode is one node: kind is stage, decider, selector, fork,
// subflow or pausable. Subflow names the mounted chart's id.
type StructureNode struct {
	ID       string   `json:"id"`
	Name     string   `json:"name"`
	Kind     string   `json:"kind"`
	Branches []string `json:"branches,omitempty"`
	Subflow  string   `json:"subflow,omitempty"`
}

// StructureEdge is one edge: kind "next" (fall-through), "branch" (Label is
// the branch id), "loop" (a back-edge; Label is the branch id when a branch
// consists of the back-edge alone) or "child" (fork or selector child).
// To is empty for an edge that ends the chart.
type StructureEdge struct {
	From  string `json:"from"`
	To    string `json:"to"`
	Kind  string `json:"kind"`
	Label string `json:"label,omitempty"`
}

// StructureKey is one declared key with its Go type.
type StructureKey struct {
	Name string `json:"name"`
	Type string `json:"type"`
	List bool   `json:"list,omitempty"`
}

// Structure returns the chart's structure.
func (c *Chart) Structure() Structure {
	st := Structure{ChartID: c.id, Nodes: []StructureNode{}, Edges: []StructureEdge{}, Keys: []StructureKey{}}
	children := map[int]bool{}
	for i := range c.nodes {
		for _, k := range c.nodes[i].children {
			children[k] = true
		}
	}
	// resolve follows joins to the node a walk reaches next (-1: the end).
	resolve := func(i int) int {
		for i >= 0 && c.nodes[i].kind == kindJoin {
			i = c.nodes[i].next
		}
		return i
	}
	edgeTo := func(from string, to int, kind, label string) {
		to = resolve(to)
		switch {
		case to < 0:
			st.Edges = append(st.Edges, StructureEdge{From: from, Kind: kind, Label: label})
		case c.nodes[to].kind == kindLoop:
			st.Edges = append(st.Edges, StructureEdge{From: from, To: c.nodes[c.nodes[to].target].id, Kind: "loop", Label: label})
		default:
			st.Edges = append(st.Edges, StructureEdge{From: from, To: c.nodes[to].id, Kind: kind, Label: label})
		}
	}
	for i := range c.nodes {
		n := &c.nodes[i]
		if n.kind == kindLoop || n.kind == kindJoin {
			continue
		}
		sn := StructureNode{ID: n.id, Name: n.name, Kind: n.kind.String()}
		if n.sub != nil {
			sn.Subflow = n.sub.id
		}
		for _, b := range n.branches {
			sn.Branches = append(sn.Branches, b.id)
		}
		st.Nodes = append(st.Nodes, sn)
		for _, b := range n.branches {
			edgeTo(n.id, b.first, "branch", b.id)
		}
		for _, k := range n.children {
			st.Edges = append(st.Edges, StructureEdge{From: n.id, To: c.nodes[k].id, Kind: "child"})
		}
		if !children[i] && n.kind != kindDecider {
			edgeTo(n.id, n.next, "next", "")
		}
	}
	for _, k := range c.keyList {
		kk := k.kind()
		st.Keys = append(st.Keys, StructureKey{Name: k.KeyName(), Type: kk.typeName(), List: kk.isList()})
	}
	return st
}

func (k valueKind[T]) typeName() string { return reflect.TypeFor[T]().String() }
func (k listKind[E]) typeName() string  { return reflect.TypeFor[[]E]().String() }
