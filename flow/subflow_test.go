// Tests for subflows: isolation, explicit output ops, logs kept per mount,
// errors recorded on the mount, breaks and pauses inside.

package flow_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/google/go-cmp/cmp"
)

var (
	kBatch    = flow.List[string]("batch")
	kVerdicts = flow.List[string]("verdicts")
	kFindings = flow.List[string]("findings")
)

// judgeChart is a small "results layer": it reads the frozen batch and writes
// one verdict per item.
func judgeChart(t testing.TB, stage flow.StageFunc) *flow.Chart {
	t.Helper()
	if stage == nil {
		stage = func(ctx context.Context, s *flow.Scope) (any, error) {
			for _, item := range kBatch.Get(s) {
				kVerdicts.Append(s, "ok:"+item)
			}
			return len(kBatch.Get(s)), nil
		}
	}
	return flow.NewBuilder("judge").Keys(kBatch, kVerdicts).
		Stage("declare", noop).
		Stage("verify", stage).
		MustBuild()
}

func mountChart(t testing.TB, sub *flow.Chart, m flow.Mount) *flow.Chart {
	t.Helper()
	return flow.NewBuilder("host").Keys(kFindings, kHistory).
		Stage("seed", func(ctx context.Context, s *flow.Scope) (any, error) {
			kHistory.Set(s, []msg{{"tool", "a"}, {"tool", "b"}})
			kFindings.Set(s, []string{"old"})
			return nil, nil
		}).
		Mount("sf-results", sub, m).
		Stage("after", func(ctx context.Context, s *flow.Scope) (any, error) { return kFindings.Get(s), nil }).
		MustBuild()
}

var judgeMount = flow.Mount{
	Input: func(p flow.Reader) (map[string]any, error) {
		var items []string
		for _, m := range kHistory.Get(p) {
			items = append(items, m.Content)
		}
		return map[string]any{"batch": items}, nil
	},
	Output: func(res flow.SubflowResult, p flow.Reader) ([]flow.Op, error) {
		return []flow.Op{kFindings.AppendOp(kVerdicts.Get(res.State)...)}, nil
	},
}

func TestSubflowMount(t *testing.T) {
	c := mountChart(t, judgeChart(t, nil), judgeMount)
	res, err := c.Run(context.Background(), nil, flow.WithRunID("r"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"old", "ok:a", "ok:b"}, res.Output); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	mount := res.Record.Commits[2]
	wantMount := &flow.Commit{Idx: 2, RuntimeStageID: "sf-results#1",
		Ops: []flow.Op{{Key: "findings", Verb: flow.VerbAppend, Value: []string{"ok:a", "ok:b"}, ReadsBefore: 1}},
		CommitDetail: &flow.CommitDetail{Stage: "sf-results", StageID: "sf-results", Reads: []string{"history"},
			Subflow: &flow.SubflowRef{Path: "sf-results", Run: "sf-results#1"}}}
	if diff := cmp.Diff(wantMount, mount); diff != "" {
		t.Errorf("mount commit (-want +got):\n%s", diff)
	}
	inner := res.Record.Subflows["sf-results#1"]
	if inner == nil {
		t.Fatal("no inner log under the mount's runtime id")
	}
	// The counter is shared: inner ids continue the run's numbering.
	if diff := cmp.Diff([]string{"input", "sf-results/declare#2", "sf-results/verify#3"}, runtimeIDs(inner)); diff != "" {
		t.Errorf("inner ids (-want +got):\n%s", diff)
	}
	if got := res.Record.Commits[3].RuntimeStageID; got != "after#4" {
		t.Errorf("after = %s", got)
	}
	// Logs are never merged: the parent log has no inner keys.
	for _, cm := range res.Record.Commits {
		for _, op := range cm.Ops {
			if op.Key == "verdicts" || op.Key == "batch" {
				t.Errorf("inner key %s leaked into parent commit %s", op.Key, cm.RuntimeStageID)
			}
		}
	}
	b := mustJSON(t, res.Record)
	back, err := c.DecodeRecord(b)
	if err != nil {
		t.Fatal(err)
	}
	v, _, err := flow.ValueAt(back.Subflows["sf-results#1"], 2, "verdicts")
	if err != nil || !cmp.Equal(v, []string{"ok:a", "ok:b"}) {
		t.Errorf("inner ValueAt after round trip = %v (%v)", v, err)
	}
}

func TestSubflowFailures(t *testing.T) {
	boom := errors.New("inner boom")
	tests := []struct {
		name  string
		sub   *flow.Chart
		mount flow.Mount
		want  string
	}{
		{"inner error", judgeChart(t, func(ctx context.Context, s *flow.Scope) (any, error) { return nil, boom }), judgeMount,
			"sf-results/verify#3: inner boom"},
		{"inputs are frozen inside", judgeChart(t, func(ctx context.Context, s *flow.Scope) (any, error) {
			kBatch.Append(s, "x")
			return nil, nil
		}), judgeMount, `key "batch": is a frozen input`},
		{"input mapping to undeclared key", judgeChart(t, nil), flow.Mount{
			Input: func(flow.Reader) (map[string]any, error) { return map[string]any{"nope": 1}, nil },
		}, `key "nope": input is not declared on chart judge`},
		{"output mapping to undeclared key", judgeChart(t, nil), flow.Mount{
			Input: judgeMount.Input,
			Output: func(flow.SubflowResult, flow.Reader) ([]flow.Op, error) {
				return []flow.Op{{Key: "ghost", Verb: flow.VerbSet, Value: 1}}, nil
			},
		}, `key "ghost": not declared on chart host`},
		{"mapping error", judgeChart(t, nil), flow.Mount{
			Input: func(flow.Reader) (map[string]any, error) { return nil, errors.New("no batch") },
		}, "input mapping: no batch"},
		{"pause inside", flow.NewBuilder("judge").Keys(kBatch).Pausable("ask", flow.Pausable{
			Execute: func(context.Context, *flow.Scope) (*flow.Pause, error) { return &flow.Pause{Data: 1}, nil },
			Resume:  func(context.Context, *flow.Scope, json.RawMessage) error { return nil },
		}).MustBuild(), flow.Mount{}, "a stage inside a subflow cannot pause"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mountChart(t, tt.sub, tt.mount)
			res, err := c.Run(context.Background(), nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
			mount := res.Record.Commits[len(res.Record.Commits)-1]
			if mount.StageID != "sf-results" || !strings.Contains(mount.Error, tt.want) || len(mount.Ops) != 0 {
				t.Errorf("mount commit = %+v", mount)
			}
			if res.Record.Subflows[mount.RuntimeStageID] == nil {
				t.Error("inner log missing after failure")
			}
			if tt.name == "pause inside" && !errors.Is(err, flow.ErrPauseInSubflow) {
				t.Errorf("err %v is not ErrPauseInSubflow", err)
			}
		})
	}
}

func TestSubflowBreak(t *testing.T) {
	sub := flow.NewBuilder("inner").Keys(kVerdicts).
		Stage("stop", func(ctx context.Context, s *flow.Scope) (any, error) { s.Break("inner done"); return "x", nil }).
		Stage("never", func(ctx context.Context, s *flow.Scope) (any, error) { return nil, errors.New("ran after break") }).
		MustBuild()
	for _, propagate := range []bool{false, true} {
		c := flow.NewBuilder("outer").
			Mount("m", sub, flow.Mount{PropagateBreak: propagate}).
			Stage("after", func(ctx context.Context, s *flow.Scope) (any, error) { return "after", nil }).
			MustBuild()
		res, err := c.Run(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		wantOut, wantN := any("after"), 3
		if propagate {
			wantOut, wantN = nil, 2
		}
		if res.Output != wantOut || len(res.Record.Commits) != wantN || res.Broke != propagate {
			t.Errorf("propagate=%v: output %v commits %v broke %v", propagate, res.Output, runtimeIDs(res.Record), res.Broke)
		}
	}
}

func TestSubflowOutputVerbs(t *testing.T) {
	sub := flow.NewBuilder("inner").Keys(kVerdicts).Stage("v", func(ctx context.Context, s *flow.Scope) (any, error) {
		kVerdicts.Append(s, "x")
		return "inner-out", nil
	}).MustBuild()
	c := flow.NewBuilder("outer").Keys(kMeta, kFinal).
		Stage("seed", func(ctx context.Context, s *flow.Scope) (any, error) {
			kMeta.Set(s, map[string]any{"a": 1.0, "keep": true})
			kFinal.Set(s, "old")
			return nil, nil
		}).
		Mount("m", sub, flow.Mount{Output: func(res flow.SubflowResult, p flow.Reader) ([]flow.Op, error) {
			return []flow.Op{{Key: "meta", Verb: flow.VerbMerge, Value: map[string]any{"a": 2.0, "out": res.Output}}, {Key: "finalContent", Verb: flow.VerbDelete}}, nil
		}}).
		Stage("read", func(ctx context.Context, s *flow.Scope) (any, error) {
			m, _ := kMeta.Get(s)
			return []any{m, s.Has("finalContent")}, nil
		}).MustBuild()
	res, err := c.Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []any{map[string]any{"a": 2.0, "keep": true, "out": "inner-out"}, false}
	if diff := cmp.Diff(want, res.Output); diff != "" {
		t.Errorf("after mount (-want +got):\n%s", diff)
	}
	var verbs []flow.Verb
	for _, op := range res.Record.Commits[2].Ops {
		verbs = append(verbs, op.Verb)
	}
	if !cmp.Equal(verbs, []flow.Verb{flow.VerbMerge, flow.VerbDelete}) {
		t.Errorf("mount verbs = %v", verbs)
	}
}

// TestKeyOps checks that the ops a key builds for an output mapping are the
// plain ops the record holds, and that a set built by SetOp lands typed.
func TestKeyOps(t *testing.T) {
	count := flow.Key[int]("count")
	if diff := cmp.Diff(flow.Op{Key: "count", Verb: flow.VerbSet, Value: 3}, count.SetOp(3)); diff != "" {
		t.Errorf("SetOp (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(flow.Op{Key: "findings", Verb: flow.VerbAppend, Value: []string{"a", "b"}}, kFindings.AppendOp("a", "b")); diff != "" {
		t.Errorf("AppendOp (-want +got):\n%s", diff)
	}
	c := flow.NewBuilder("host").Keys(count).
		Mount("sf", judgeChart(t, nil), flow.Mount{
			Input: func(flow.Reader) (map[string]any, error) { return map[string]any{"batch": []string{"x", "y"}}, nil },
			Output: func(res flow.SubflowResult, _ flow.Reader) ([]flow.Op, error) {
				return []flow.Op{count.SetOp(len(kVerdicts.Get(res.State)))}, nil
			},
		}).
		Stage("read", func(ctx context.Context, s *flow.Scope) (any, error) {
			n, ok := count.Get(s)
			if !ok {
				return nil, errors.New("count is not an int")
			}
			return n, nil
		}).
		MustBuild()
	res, err := c.Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Output != 2 {
		t.Errorf("output = %v, want 2", res.Output)
	}
}

// A subflow chart mounted at two places of one run, each mount reusing the
// exec the previous one left, still reports each mount's own path and
// starts from its own inputs.
func TestSubflowMountedTwiceKeepsEachPath(t *testing.T) {
	in := flow.Key[int]("in")
	seen := flow.Key[string]("seen")
	var paths []string
	sub := flow.NewBuilder("sub").Keys(in, seen).
		Stage("look", func(ctx context.Context, s *flow.Scope) (any, error) {
			paths = append(paths, s.Info().SubflowPath)
			if _, had := seen.Get(s); had {
				return nil, errors.New("state leaked from the previous mount")
			}
			v, _ := in.Get(s)
			seen.Set(s, fmt.Sprint(v))
			return nil, nil
		}).MustBuild()
	out := flow.List[string]("out")
	mount := func(v int) flow.Mount {
		return flow.Mount{
			Input: func(flow.Reader) (map[string]any, error) { return map[string]any{"in": v}, nil },
			Output: func(res flow.SubflowResult, _ flow.Reader) ([]flow.Op, error) {
				got, _ := res.State.Get("seen")
				return []flow.Op{out.AppendOp(got.(string))}, nil
			},
		}
	}
	c := flow.NewBuilder("outer").Keys(out).
		Mount("a", sub, mount(1)).
		Mount("b", sub, mount(2)).
		Mount("a2", sub, mount(3)).MustBuild()
	res, err := c.Run(context.Background(), nil, flow.WithRunID("twice"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a", "b", "a2"}, paths); diff != "" {
		t.Errorf("subflow paths (-want +got):\n%s", diff)
	}
	v, _, err := flow.ValueAt(res.Record, len(res.Record.Commits)-1, "out")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"1", "2", "3"}, v); diff != "" {
		t.Errorf("out (-want +got):\n%s", diff)
	}
	var ids []string
	for _, k := range []string{"a#0", "b#2", "a2#4"} {
		r, ok := res.Record.Subflows[k]
		if !ok {
			t.Fatalf("no subflow record %q; have %v", k, keysOf(res.Record.Subflows))
		}
		for _, cm := range r.Commits {
			ids = append(ids, cm.RuntimeStageID)
		}
	}
	if diff := cmp.Diff([]string{"input", "a/look#1", "input", "b/look#3", "input", "a2/look#5"}, ids); diff != "" {
		t.Errorf("inner commits (-want +got):\n%s", diff)
	}
}

func keysOf(m map[string]*flow.Record) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
