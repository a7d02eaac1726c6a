// The causal slice: who last wrote what a commit read, walked backwards from
// the record alone, with the decisions that governed each step.

package flow

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
)

// LastWriter returns the index of the last commit before commit before that
// wrote key (any verb), or false when nothing before it wrote the key.
func LastWriter(rec *Record, key string, before int) (int, bool) {
	if rec == nil {
		return 0, false
	}
	ws := rec.writers(key)
	i := sort.SearchInts(ws, before)
	if i == 0 {
		return 0, false
	}
	return ws[i-1], true
}

// ElementBirth returns the commit that put element elem of the list key
// into the list as of commit asOf: the append whose tail holds it, or the set
// that wrote the whole list (a set resets every birth). It reports false when
// the list is absent or shorter than elem+1.
func ElementBirth(rec *Record, key string, elem, asOf int) (int, bool, error) {
	if rec == nil || asOf < 0 || asOf >= len(rec.Commits) {
		return 0, false, fmt.Errorf("flow: ElementBirth: commit %d out of range", asOf)
	}
	if elem < 0 {
		return 0, false, nil
	}
	ws := rec.writers(key)
	end := sort.SearchInts(ws, asOf+1)
	count := 0
	birth := -1
	for _, ci := range ws[:end] {
		for _, op := range rec.Commits[ci].Ops {
			if op.Key != key {
				continue
			}
			switch op.Verb {
			case VerbSet:
				n, err := listLen(op.Value)
				if err != nil {
					return 0, false, fmt.Errorf("flow: ElementBirth %q at commit %d: %w", key, ci, err)
				}
				count, birth = n, -1
				if elem < n {
					birth = ci
				}
			case VerbDelete:
				count, birth = 0, -1
			case VerbAppend:
				n, err := listLen(op.Value)
				if err != nil {
					return 0, false, fmt.Errorf("flow: ElementBirth %q at commit %d: %w", key, ci, err)
				}
				if birth < 0 && elem >= count && elem < count+n {
					birth = ci
				}
				count += n
			case VerbMerge:
				return 0, false, fmt.Errorf("flow: ElementBirth: key %q is merged at commit %d, not a list", key, ci)
			}
		}
	}
	if birth < 0 {
		return 0, false, nil
	}
	return birth, true, nil
}

func listLen(v any) (int, error) {
	if v == nil {
		return 0, nil
	}
	if raw, ok := v.(json.RawMessage); ok {
		var l []json.RawMessage
		if err := json.Unmarshal(raw, &l); err != nil {
			return 0, fmt.Errorf("value is not a list")
		}
		return len(l), nil
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
		return 0, fmt.Errorf("value is %T, not a list", v)
	}
	return rv.Len(), nil
}

// SliceOptions bounds a backward slice. Zero values take the defaults.
type SliceOptions struct {
	// MaxDepth bounds how many edges back the walk goes (default 12).
	MaxDepth int
	// MaxNodes bounds the number of nodes (default 80).
	MaxNodes int
	// Keys, when set, restricts the start commit's data edges to these keys.
	Keys []string
	// SkipControl leaves out control edges to governing decisions.
	SkipControl bool
}

// Edge kinds of a slice.
const (
	EdgeData    = "data"
	EdgeControl = "control"
)

// Slice flags.
const (
	FlagTruncated    = "truncated"
	FlagUntracked    = "untracked"
	FlagNeverWritten = "neverWritten"
)

// SliceNode is one commit on a slice, with its distance from the start.
type SliceNode struct {
	Commit         int      `json:"commit"`
	RuntimeStageID string   `json:"runtimeStageId"`
	StageID        string   `json:"stageId"`
	Depth          int      `json:"depth"`
	Untracked      []string `json:"untracked,omitempty"`
}

// SliceEdge points from a commit back to what it depends on: for a data edge
// the last writer of Key before it, for a control edge the decision (Rule is
// its label) that governed it. From and To are runtime stage ids.
type SliceEdge struct {
	From string `json:"from"`
	To   string `json:"to"`
	Kind string `json:"kind"`
	Key  string `json:"key,omitempty"`
	Rule string `json:"rule,omitempty"`
}

// SliceResult is a backward slice as a flat DAG.
type SliceResult struct {
	Nodes []SliceNode `json:"nodes"`
	Edges []SliceEdge `json:"edges"`
	Flags []string    `json:"flags"`
	// NeverWritten lists keys read on the slice that nothing wrote before.
	NeverWritten []string `json:"neverWritten,omitempty"`
}

// Slice walks backwards from commit start over "who last wrote what I read"
// (data edges) and "which decision governed me" (control edges), breadth
// first and bounded. A writer reached through key k is followed only through
// the reads it made before writing k (the op's readsBefore). Every data edge
// pairs a recorded read with a recorded write.
func Slice(rec *Record, start int, opt SliceOptions) (*SliceResult, error) {
	if rec == nil || start < 0 || start >= len(rec.Commits) {
		return nil, fmt.Errorf("flow: Slice: commit %d out of range", start)
	}
	if opt.MaxDepth <= 0 {
		opt.MaxDepth = 12
	}
	if opt.MaxNodes <= 0 {
		opt.MaxNodes = 80
	}
	res := &SliceResult{Nodes: []SliceNode{}, Edges: []SliceEdge{}, Flags: []string{}}
	flags := map[string]bool{}
	pos := map[int]int{}    // commit -> index in res.Nodes
	prefix := map[int]int{} // commit -> reads prefix already expanded
	edges := map[SliceEdge]bool{}
	never := map[string]bool{}
	type item struct{ commit, prefix int }
	queue := []item{}

	visit := func(ci, depth, pre int) bool {
		if _, ok := pos[ci]; !ok {
			if len(res.Nodes) >= opt.MaxNodes {
				flags[FlagTruncated] = true
				return false
			}
			c := rec.Commits[ci]
			pos[ci] = len(res.Nodes)
			res.Nodes = append(res.Nodes, SliceNode{Commit: ci, RuntimeStageID: c.RuntimeStageID,
				StageID: c.StageID, Depth: depth, Untracked: c.Untracked})
			if len(c.Untracked) > 0 {
				flags[FlagUntracked] = true
			}
			prefix[ci] = -1
		}
		if pre > prefix[ci] {
			queue = append(queue, item{ci, pre})
		}
		return true
	}
	addEdge := func(e SliceEdge) {
		if !edges[e] {
			edges[e] = true
			res.Edges = append(res.Edges, e)
		}
	}
	visit(start, 0, len(rec.Commits[start].Reads))
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		if it.prefix <= prefix[it.commit] {
			continue
		}
		from := prefix[it.commit]
		if from < 0 {
			from = 0
		}
		prefix[it.commit] = it.prefix
		c := rec.Commits[it.commit]
		depth := res.Nodes[pos[it.commit]].Depth
		if depth >= opt.MaxDepth {
			if len(c.Reads) > 0 || c.Control != nil {
				flags[FlagTruncated] = true
			}
			continue
		}
		reads := c.Reads[from:it.prefix]
		for _, key := range reads {
			if it.commit == start && len(opt.Keys) > 0 && !contains(opt.Keys, key) {
				continue
			}
			w, ok := LastWriter(rec, key, it.commit)
			if !ok {
				if !never[key] {
					never[key] = true
					res.NeverWritten = append(res.NeverWritten, key)
				}
				flags[FlagNeverWritten] = true
				continue
			}
			if visit(w, depth+1, writePrefix(rec.Commits[w], key)) {
				addEdge(SliceEdge{From: c.RuntimeStageID, To: rec.Commits[w].RuntimeStageID, Kind: EdgeData, Key: key})
			}
		}
		if c.Control != nil && !opt.SkipControl && from == 0 {
			if d, ok := rec.Find(c.Control.Decider); ok && d < it.commit {
				if visit(d, depth+1, len(rec.Commits[d].Reads)) {
					addEdge(SliceEdge{From: c.RuntimeStageID, To: c.Control.Decider, Kind: EdgeControl, Rule: c.Control.Rule})
				}
			}
		}
	}
	for _, f := range []string{FlagTruncated, FlagUntracked, FlagNeverWritten} {
		if flags[f] {
			res.Flags = append(res.Flags, f)
		}
	}
	return res, nil
}

// writePrefix is how many of c's reads preceded its last write of key; a
// decision depends on all of its reads.
func writePrefix(c *Commit, key string) int {
	if c.Decision != nil {
		return len(c.Reads)
	}
	p := 0
	for _, op := range c.Ops {
		if op.Key == key && op.ReadsBefore > p {
			p = op.ReadsBefore
		}
	}
	if p > len(c.Reads) {
		p = len(c.Reads)
	}
	return p
}
