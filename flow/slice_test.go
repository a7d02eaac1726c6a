// Tests for the causal slice: last writers, backward chains with data and
// control edges, element births, all from the record alone.

package flow_test

import (
	"encoding/json"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/google/go-cmp/cmp"
)

func TestLastWriter(t *testing.T) {
	res := runAgent(t, agentChart(t, 2, -1))
	tests := []struct {
		key    string
		before int
		want   int
		ok     bool
	}{
		{"history", 11, 8, true},
		{"history", 8, 7, true},
		{"history", 2, 1, true},
		{"history", 1, 0, false},
		{"maxIterations", 11, 0, true},
		{"never", 11, 0, false},
		{"finalContent", 11, 10, true},
	}
	for _, tt := range tests {
		got, ok := flow.LastWriter(res.Record, tt.key, tt.before)
		if got != tt.want || ok != tt.ok {
			t.Errorf("LastWriter(%s, %d) = %d %v, want %d %v", tt.key, tt.before, got, ok, tt.want, tt.ok)
		}
	}
}

func TestSliceFromAnswer(t *testing.T) {
	c := agentChart(t, 2, -1)
	res := runAgent(t, c)
	got, err := flow.Slice(res.Record, 11, flow.SliceOptions{MaxDepth: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := &flow.SliceResult{
		Nodes: []flow.SliceNode{
			{Commit: 11, RuntimeStageID: "break-final#10", StageID: "break-final", Depth: 0},
			{Commit: 10, RuntimeStageID: "prepare-final#9", StageID: "prepare-final", Depth: 1},
			{Commit: 9, RuntimeStageID: "sf-route#8", StageID: "sf-route", Depth: 1},
			{Commit: 8, RuntimeStageID: "call-llm#7", StageID: "call-llm", Depth: 2},
			{Commit: 7, RuntimeStageID: "tool-calls#6", StageID: "tool-calls", Depth: 2},
			{Commit: 0, RuntimeStageID: "input", StageID: "input", Depth: 2},
			{Commit: 6, RuntimeStageID: "sf-route#5", StageID: "sf-route", Depth: 2},
		},
		Edges: []flow.SliceEdge{
			{From: "break-final#10", To: "prepare-final#9", Kind: "data", Key: "finalContent"},
			{From: "break-final#10", To: "sf-route#8", Kind: "control", Rule: "default"},
			{From: "prepare-final#9", To: "call-llm#7", Kind: "data", Key: "history"},
			{From: "prepare-final#9", To: "sf-route#8", Kind: "control", Rule: "default"},
			{From: "sf-route#8", To: "call-llm#7", Kind: "data", Key: "toolCalls"},
			{From: "sf-route#8", To: "tool-calls#6", Kind: "data", Key: "iteration"},
			{From: "sf-route#8", To: "input", Kind: "data", Key: "maxIterations"},
			{From: "sf-route#8", To: "sf-route#5", Kind: "control", Rule: "model asked for tools within the step budget"},
		},
		Flags: []string{"truncated"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("slice (-want +got):\n%s", diff)
	}

	// The same slice from the record after a JSON round trip (no chart).
	var raw flow.Record
	if err := json.Unmarshal(mustJSON(t, res.Record), &raw); err != nil {
		t.Fatal(err)
	}
	for _, opt := range []flow.SliceOptions{{MaxDepth: 2}, {}, {SkipControl: true}, {Keys: []string{"finalContent"}, MaxNodes: 3}} {
		live, err := flow.Slice(res.Record, 11, opt)
		if err != nil {
			t.Fatal(err)
		}
		again, err := flow.Slice(&raw, 11, opt)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(live, again); diff != "" {
			t.Errorf("slice %+v differs after round trip (-live +decoded):\n%s", opt, diff)
		}
	}

	full, err := flow.Slice(res.Record, 11, flow.SliceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(full.Flags) != 0 || len(full.Nodes) != 12 {
		t.Errorf("full slice: %d nodes, flags %v; want all 12 commits and no flags", len(full.Nodes), full.Flags)
	}
	capped, _ := flow.Slice(res.Record, 11, flow.SliceOptions{MaxNodes: 3})
	if len(capped.Nodes) != 3 || !cmp.Equal(capped.Flags, []string{"truncated"}) {
		t.Errorf("capped: %d nodes flags %v", len(capped.Nodes), capped.Flags)
	}
}

func TestSliceWriteLevelProvenance(t *testing.T) {
	// a is read before out is written, b only after: the slice through out
	// follows a and not b.
	a, b, out, other := flow.Key[int]("a"), flow.Key[int]("b"), flow.Key[int]("out"), flow.Key[int]("other")
	c := flow.NewBuilder("p").Keys(a, b, out, other).
		Stage("w", func(ctx ctxT, s *flow.Scope) (any, error) {
			x, _ := a.Get(s)
			out.Set(s, x)
			y, _ := b.Get(s)
			other.Set(s, y)
			return nil, nil
		}).
		Stage("r", func(ctx ctxT, s *flow.Scope) (any, error) {
			_, _ = out.Get(s)
			_, _ = s.Get("missing")
			return nil, nil
		}).
		MustBuild()
	res, err := c.Run(bg(), map[string]any{"a": 1, "b": 2})
	if err != nil {
		t.Fatal(err)
	}
	got, err := flow.Slice(res.Record, 2, flow.SliceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantEdges := []flow.SliceEdge{
		{From: "r#1", To: "w#0", Kind: "data", Key: "out"},
		{From: "w#0", To: "input", Kind: "data", Key: "a"},
	}
	if diff := cmp.Diff(wantEdges, got.Edges); diff != "" {
		t.Errorf("edges (-want +got):\n%s", diff)
	}
	if !cmp.Equal(got.Flags, []string{"neverWritten"}) || !cmp.Equal(got.NeverWritten, []string{"missing"}) {
		t.Errorf("flags %v neverWritten %v", got.Flags, got.NeverWritten)
	}
}

func TestElementBirth(t *testing.T) {
	res := runAgent(t, agentChart(t, 2, -1))
	// history: user (seed, commit 1), assistant (call-llm#1, 2), tool (tool-calls#3, 4),
	// assistant (call-llm#4, 5), tool (7), assistant (8).
	want := []int{1, 2, 4, 5, 7, 8}
	var raw flow.Record
	if err := json.Unmarshal(mustJSON(t, res.Record), &raw); err != nil {
		t.Fatal(err)
	}
	for _, rec := range []*flow.Record{res.Record, &raw} {
		for i, w := range want {
			got, ok, err := flow.ElementBirth(rec, "history", i, len(rec.Commits)-1)
			if err != nil || !ok || got != w {
				t.Errorf("ElementBirth(history, %d) = %d %v %v, want %d", i, got, ok, err, w)
			}
		}
		if _, ok, _ := flow.ElementBirth(rec, "history", 6, len(rec.Commits)-1); ok {
			t.Error("element 6 does not exist")
		}
		if got, ok, _ := flow.ElementBirth(rec, "history", 2, 3); ok {
			t.Errorf("element 2 as of commit 3 = %d, want absent", got)
		}
	}
}
