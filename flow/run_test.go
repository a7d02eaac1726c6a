// Tests for running charts: runtime ids, commits per stage, control edges,
// loops, breaks and the recorded log's JSON.

package flow_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/google/go-cmp/cmp"
)

func TestAgentRunRecord(t *testing.T) {
	c := agentChart(t, 2, -1)
	res := runAgent(t, c)
	if res.Output != "done" || !res.Broke || res.BreakReason != "final" {
		t.Errorf("output %v broke %v reason %q", res.Output, res.Broke, res.BreakReason)
	}
	wantIDs := []string{"input", "seed#0", "call-llm#1", "sf-route#2", "tool-calls#3", "call-llm#4",
		"sf-route#5", "tool-calls#6", "call-llm#7", "sf-route#8", "prepare-final#9", "break-final#10"}
	if diff := cmp.Diff(wantIDs, runtimeIDs(res.Record)); diff != "" {
		t.Errorf("runtime ids (-want +got):\n%s", diff)
	}
	// Control edges: everything under a branch, and reached through its
	// loop edge, points at the governing decision.
	wantCtl := map[string]string{
		"tool-calls#3": "sf-route#2", "call-llm#4": "sf-route#2", "sf-route#5": "sf-route#2",
		"tool-calls#6": "sf-route#5", "call-llm#7": "sf-route#5", "sf-route#8": "sf-route#5", "prepare-final#9": "sf-route#8",
		"break-final#10": "sf-route#8",
	}
	for _, cm := range res.Record.Commits {
		want, has := wantCtl[cm.RuntimeStageID]
		switch {
		case has && (cm.Control == nil || cm.Control.Decider != want):
			t.Errorf("%s control = %+v, want decider %s", cm.RuntimeStageID, cm.Control, want)
		case !has && cm.Control != nil:
			t.Errorf("%s control = %+v, want none", cm.RuntimeStageID, cm.Control)
		}
	}
	final := res.Record.Commits[10].Control
	if final.Rule != flow.DefaultRule || final.RuleIndex != -1 || final.Branch != "final" {
		t.Errorf("final control = %+v", final)
	}
	b := mustJSON(t, res.Record)
	golden(t, "agent-record.json", b)

	// Byte-identical round trip, typed and untyped.
	typed, err := c.DecodeRecord(b)
	if err != nil {
		t.Fatal(err)
	}
	if again := mustJSON(t, typed); !bytes.Equal(again, b) {
		t.Errorf("typed round trip differs:\n%s", cmp.Diff(string(b), string(again)))
	}
	var raw flow.Record
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	if again := mustJSON(t, &raw); !bytes.Equal(again, b) {
		t.Errorf("raw round trip differs:\n%s", cmp.Diff(string(b), string(again)))
	}
	h, ok, err := flow.ValueAt(typed, 7, "history")
	if err != nil || !ok {
		t.Fatalf("ValueAt: %v %v", ok, err)
	}
	wantH := []msg{{"user", "hi"}, {"assistant", "calling lookup"}, {"tool", "result"},
		{"assistant", "calling lookup"}, {"tool", "result"}}
	if diff := cmp.Diff(wantH, h); diff != "" {
		t.Errorf("history at 7 (-want +got):\n%s", diff)
	}
	rawH, _, err := flow.ValueAt(&raw, 7, "history")
	if err != nil {
		t.Fatal(err)
	}
	var decoded []msg
	if err := json.Unmarshal(rawH.(json.RawMessage), &decoded); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantH, decoded); diff != "" {
		t.Errorf("raw history at 7 (-want +got):\n%s", diff)
	}
}

func TestOneCommitPerStageIncludingFailures(t *testing.T) {
	k := flow.Key[int]("k")
	boom := errors.New("boom")
	tests := []struct {
		name    string
		fn      flow.StageFunc
		wantErr string
		wantOps []flow.Op
	}{
		{"no touch", noop, "", nil},
		{"error keeps staged writes", func(ctx context.Context, s *flow.Scope) (any, error) {
			k.Set(s, 7)
			return nil, boom
		}, "boom", []flow.Op{{Key: "k", Verb: flow.VerbSet, Value: 7}}},
		{"panic is an error naming the stage", func(ctx context.Context, s *flow.Scope) (any, error) {
			k.Set(s, 8)
			panic("kaput")
		}, `stage "work" panicked: kaput`, []flow.Op{{Key: "k", Verb: flow.VerbSet, Value: 8}}},
		{"refused write fails the stage, others land", func(ctx context.Context, s *flow.Scope) (any, error) {
			flow.Key[any]("undeclared").Set(s, 1)
			k.Set(s, 9)
			return nil, nil
		}, `key "undeclared": not declared on chart c`, []flow.Op{{Key: "k", Verb: flow.VerbSet, Value: 9}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := flow.NewBuilder("c").Keys(k).Stage("work", tt.fn).Stage("after", noop).MustBuild()
			res, err := c.Run(context.Background(), nil)
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("err = %v, want %q", err, tt.wantErr)
			}
			n := 3
			if tt.wantErr != "" {
				n = 2
				var se *flow.StageError
				if !errors.As(err, &se) || se.RuntimeStageID != "work#0" {
					t.Errorf("err %v is not a StageError for work#0", err)
				}
				if !strings.Contains(res.Record.Commits[1].Error, tt.wantErr) {
					t.Errorf("commit error = %q", res.Record.Commits[1].Error)
				}
			}
			if len(res.Record.Commits) != n {
				t.Fatalf("commits = %v, want %d", runtimeIDs(res.Record), n)
			}
			if diff := cmp.Diff(tt.wantOps, res.Record.Commits[1].Ops); diff != "" {
				t.Errorf("ops (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoopLimitAndContext(t *testing.T) {
	k := flow.Key[int]("k")
	c := flow.NewBuilder("spin").Keys(k).Stage("a", func(ctx context.Context, s *flow.Scope) (any, error) {
		v, _ := k.Get(s)
		k.Set(s, v+1)
		return nil, nil
	}).LoopTo("a").MustBuild()
	res, err := c.Run(context.Background(), nil, flow.WithVisitLimit(5))
	var le *flow.LoopLimitError
	if !errors.As(err, &le) || le.Node != "a" || le.Limit != 5 {
		t.Fatalf("err = %v, want LoopLimitError{a 5}", err)
	}
	// 1 input commit + first pass + 5 loop passes.
	if got := len(res.Record.Commits); got != 7 {
		t.Errorf("commits = %d, want 7", got)
	}
	if v, _, _ := flow.ValueAt(res.Record, 6, "k"); v != 6 {
		t.Errorf("k = %v, want 6 (state never rewinds)", v)
	}

	ctx, cancel := context.WithCancel(context.Background())
	stopper := flow.NewBuilder("stop").Keys(k).Stage("a", func(c context.Context, s *flow.Scope) (any, error) {
		v, _ := k.Get(s)
		if v == 3 {
			cancel()
		}
		k.Set(s, v+1)
		return nil, nil
	}).LoopTo("a").MustBuild()
	res, err = stopper.Run(ctx, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if got := len(res.Record.Commits); got != 5 {
		t.Errorf("commits after cancel = %d, want 5", got)
	}
}

func TestJoinRestoresGoverningDecision(t *testing.T) {
	c := flow.NewBuilder("join").
		Stage("a", noop).
		Decider("outer", pick("x"),
			flow.Branch("x").Decider("inner", pick("y"), flow.Branch("y").Stage("in-y", noop)).Stage("after-inner", noop)).
		Stage("tail", noop).
		MustBuild()
	res, err := c.Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, cm := range res.Record.Commits {
		if cm.Control != nil {
			got[cm.RuntimeStageID] = cm.Control.Decider
		} else {
			got[cm.RuntimeStageID] = ""
		}
	}
	want := map[string]string{"input": "", "a#0": "", "outer#1": "", "inner#2": "outer#1", "in-y#3": "inner#2",
		"after-inner#4": "outer#1", "tail#5": ""}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("controls (-want +got):\n%s", diff)
	}
}

func TestInputsAreFrozenAndTyped(t *testing.T) {
	c := flow.NewBuilder("in").Keys(kUser, kIter).Stage("a", func(ctx context.Context, s *flow.Scope) (any, error) {
		u, ok := s.Get("userMessage")
		if !ok {
			return nil, errors.New("no input")
		}
		kUser.Set(s, "changed")
		return u, nil
	}).MustBuild()
	res, err := c.Run(context.Background(), map[string]any{"userMessage": "hello"})
	if err == nil || !strings.Contains(err.Error(), `key "userMessage": is a frozen input`) {
		t.Fatalf("err = %v, want frozen-input refusal", err)
	}
	in := res.Record.Commits[0]
	if in.RuntimeStageID != "input" || len(in.Ops) != 1 || in.Ops[0].Value != "hello" {
		t.Errorf("input commit = %+v", in)
	}
	if got := res.Record.Commits[1].Reads; !cmp.Equal(got, []string{"userMessage"}) {
		t.Errorf("reads = %v", got)
	}

	for name, inputs := range map[string]map[string]any{
		"undeclared": {"nope": 1},
		"wrong type": {"iteration": "one"},
	} {
		_, err := c.Run(context.Background(), inputs)
		var ke *flow.KeyError
		if !errors.As(err, &ke) {
			t.Errorf("%s: err = %v, want KeyError", name, err)
		}
	}
}

func TestBreakOutputAndLeafOutput(t *testing.T) {
	c := flow.NewBuilder("b").
		Stage("a", func(ctx context.Context, s *flow.Scope) (any, error) { return "a", nil }).
		Stage("b", func(ctx context.Context, s *flow.Scope) (any, error) { s.Break("enough"); return "b", nil }).
		Stage("c", func(ctx context.Context, s *flow.Scope) (any, error) { return "c", nil }).
		MustBuild()
	res, err := c.Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Output != "b" || !res.Broke || res.BreakReason != "enough" || len(res.Record.Commits) != 3 {
		t.Errorf("result = %+v, commits %v", res, runtimeIDs(res.Record))
	}
}

func TestConcurrentRunsShareNothing(t *testing.T) {
	c := agentChart(t, 3, -1)
	done := make(chan []string, 4)
	for range 4 {
		go func() {
			res, err := c.Run(context.Background(), map[string]any{"userMessage": "hi", "maxIterations": 5})
			if err != nil {
				done <- nil
				return
			}
			done <- runtimeIDs(res.Record)
		}()
	}
	var first []string
	for range 4 {
		ids := <-done
		if ids == nil {
			t.Fatal("a concurrent run failed")
		}
		if first == nil {
			first = ids
		} else if !cmp.Equal(first, ids) {
			t.Errorf("runs differ: %v vs %v", first, ids)
		}
	}
}

func TestMaterialise(t *testing.T) {
	c := agentChart(t, 1, -1)
	res := runAgent(t, c)
	back, err := c.DecodeRecord(mustJSON(t, res.Record))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"maxIterations": 5, "userMessage": "hi", "iteration": 2, "finalContent": "",
		"toolCalls": []string{"lookup"},
		"history":   []msg{{"user", "hi"}, {"assistant", "calling lookup"}, {"tool", "result"}},
	}
	for _, rec := range []*flow.Record{res.Record, back} {
		got, err := flow.Materialise(rec, 4)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("state after commit 4 (-want +got):\n%s", diff)
		}
	}
	if _, err := flow.Materialise(res.Record, 99); err == nil {
		t.Error("out-of-range commit accepted")
	}
	if cm, ok := res.Record.Commit(4); !ok || cm.RuntimeStageID != "tool-calls#3" {
		t.Errorf("Commit(4) = %v %v", cm, ok)
	}
	if _, ok := res.Record.Commit(-1); ok {
		t.Error("Commit(-1) found")
	}
}
