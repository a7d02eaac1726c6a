// Tests for pause and resume: exact continuation, JSON checkpoints and the
// refusal of checkpoints that do not fit the chart.

package flow_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/google/go-cmp/cmp"
)

var fixedClock = flow.WithClock(func() time.Time { return time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC) })

func pausedAgent(t *testing.T) (*flow.Chart, *flow.Result) {
	t.Helper()
	c := agentChart(t, 3, 2)
	res := runAgent(t, c, fixedClock)
	if !res.Paused || res.Checkpoint == nil {
		t.Fatalf("run did not pause: %+v", res)
	}
	return c, res
}

func TestPauseResumeExact(t *testing.T) {
	c, res := pausedAgent(t)
	cp := res.Checkpoint
	if cp.PausedStageID != "tool-calls" || cp.PausedRuntimeStageID != "tool-calls#6" || cp.ExecutionCount != 7 {
		t.Errorf("checkpoint = %+v", cp)
	}
	if diff := cmp.Diff(map[string]any{"question": "approve?", "iteration": 2}, res.PauseData); diff != "" {
		t.Errorf("pause data (-want +got):\n%s", diff)
	}
	b := mustJSON(t, cp)
	golden(t, "agent-checkpoint.json", b)

	decoded, err := decodeCheckpoint(b)
	if err != nil {
		t.Fatal(err)
	}
	if again := mustJSON(t, decoded); !bytes.Equal(again, b) {
		t.Errorf("checkpoint round trip differs:\n%s", cmp.Diff(string(b), string(again)))
	}

	// Resuming the in-process checkpoint and the decoded one gives the same record.
	var records [][]byte
	for _, from := range []*flow.Checkpoint{cp, decoded} {
		var starts []string
		out, err := c.Resume(context.Background(), from, json.RawMessage(`"approved"`), flow.WithRunID("run-2"),
			flow.WithObserver("", &flow.Hooks{StageStart: func(i flow.StageInfo) { starts = append(starts, i.RuntimeStageID) }}))
		if err != nil {
			t.Fatal(err)
		}
		if out.Output != "done" || out.Record.ResumedFrom != "run-1" || out.Record.RunID != "run-2" {
			t.Errorf("resume result: output %v resumedFrom %q", out.Output, out.Record.ResumedFrom)
		}
		// Nothing before the pause runs again; the counter continues.
		wantStarts := []string{"tool-calls#7", "call-llm#8", "sf-route#9", "tool-calls#10", "call-llm#11",
			"sf-route#12", "prepare-final#13", "break-final#14"}
		if diff := cmp.Diff(wantStarts, starts); diff != "" {
			t.Errorf("executions after resume (-want +got):\n%s", diff)
		}
		resumed := out.Record.Commits[8]
		if resumed.RuntimeStageID != "tool-calls#7" || resumed.Control == nil || resumed.Control.Decider != "sf-route#5" {
			t.Errorf("resumed commit = %+v", resumed)
		}
		h, _, err := flow.ValueAt(out.Record, 8, "history")
		if err != nil {
			t.Fatal(err)
		}
		if got := h.([]msg); got[len(got)-1] != (msg{"tool", "approved"}) {
			t.Errorf("history tail = %v", got[len(got)-1])
		}
		records = append(records, mustJSON(t, out.Record))
	}
	if !bytes.Equal(records[0], records[1]) {
		t.Errorf("resume from decoded checkpoint differs:\n%s", cmp.Diff(string(records[0]), string(records[1])))
	}
	// The original checkpoint is untouched by resuming (detached).
	if again := mustJSON(t, cp); !bytes.Equal(again, b) {
		t.Error("resume modified the checkpoint")
	}
}

func TestResumeRefusals(t *testing.T) {
	c, res := pausedAgent(t)
	b := mustJSON(t, res.Checkpoint)
	edit := func(f func(m map[string]any)) *flow.Checkpoint {
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		f(m)
		nb, _ := json.Marshal(m)
		cp, err := decodeCheckpoint(nb)
		if err != nil {
			t.Fatal(err)
		}
		return cp
	}
	other := flow.NewBuilder("other").Stage("a", noop).MustBuild()
	tests := []struct {
		name  string
		chart *flow.Chart
		cp    *flow.Checkpoint
		field string
	}{
		{"nil", c, nil, "checkpoint"},
		{"version", c, edit(func(m map[string]any) { m["version"] = 2 }), "version"},
		{"other chart", other, res.Checkpoint, "chartId"},
		{"unknown stage", c, edit(func(m map[string]any) { m["pausedStageId"] = "seed" }), "pausedStageId"},
		{"undeclared key", c, edit(func(m map[string]any) { m["state"].(map[string]any)["ghost"] = 1 }), "state.ghost"},
		{"undecodable key", c, edit(func(m map[string]any) { m["state"].(map[string]any)["iteration"] = "x" }), "state.iteration"},
		{"corrupt log verb", c, edit(func(m map[string]any) {
			log := m["log"].(map[string]any)
			log["commits"].([]any)[2].(map[string]any)["ops"].([]any)[0].(map[string]any)["verb"] = "zap"
		}), "log"},
		{"runtime id mismatch", c, edit(func(m map[string]any) { m["pausedRuntimeStageId"] = "tool-calls#3" }), "pausedRuntimeStageId"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.chart.Resume(context.Background(), tt.cp, json.RawMessage(`"x"`))
			var ce *flow.CheckpointError
			if !errors.As(err, &ce) || ce.Field != tt.field {
				t.Fatalf("err = %v, want CheckpointError on %s", err, tt.field)
			}
		})
	}
}

func TestResumeErrorIsRecorded(t *testing.T) {
	c, res := pausedAgent(t)
	out, err := c.Resume(context.Background(), res.Checkpoint, json.RawMessage(`{"not":"a string"}`))
	if err == nil || !strings.Contains(err.Error(), "tool-calls#7") {
		t.Fatalf("err = %v, want a failure of tool-calls#7", err)
	}
	last := out.Record.Commits[len(out.Record.Commits)-1]
	if last.RuntimeStageID != "tool-calls#7" || last.Error == "" {
		t.Errorf("last commit = %+v", last)
	}
}

func TestPauseDataMustEncode(t *testing.T) {
	c := flow.NewBuilder("p").Pausable("p", flow.Pausable{
		Execute: func(ctx context.Context, s *flow.Scope) (*flow.Pause, error) {
			return &flow.Pause{Data: func() {}}, nil
		},
		Resume: func(ctx context.Context, s *flow.Scope, in json.RawMessage) error { return nil },
	}).MustBuild()
	res, err := c.Run(context.Background(), nil)
	if err == nil || !strings.Contains(err.Error(), "pause data does not encode") || res.Paused {
		t.Fatalf("err = %v paused %v", err, res.Paused)
	}
}

func TestResumeKeepsTypedSubflowLogs(t *testing.T) {
	ask := flow.Pausable{
		Execute: func(ctx context.Context, s *flow.Scope) (*flow.Pause, error) { return &flow.Pause{Data: "ok?"}, nil },
		Resume:  func(ctx context.Context, s *flow.Scope, in json.RawMessage) error { return nil },
	}
	c := flow.NewBuilder("host").Keys(kFindings, kHistory).
		Stage("seed", func(ctx context.Context, s *flow.Scope) (any, error) {
			kHistory.Set(s, []msg{{"tool", "a"}})
			return nil, nil
		}).
		Mount("sf-results", judgeChart(t, nil), judgeMount).
		Pausable("ask", ask).
		Stage("done", func(ctx context.Context, s *flow.Scope) (any, error) { return kFindings.Get(s), nil }).
		MustBuild()
	res, err := c.Run(context.Background(), nil)
	if err != nil || !res.Paused {
		t.Fatalf("run: %v paused %v", err, res.Paused)
	}
	cp, err := decodeCheckpoint(mustJSON(t, res.Checkpoint))
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.Resume(context.Background(), cp, json.RawMessage(`null`))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"ok:a"}, out.Output); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
	inner := out.Record.Subflows["sf-results#1"]
	v, _, err := flow.ValueAt(inner, len(inner.Commits)-1, "verdicts")
	if err != nil || !cmp.Equal(v, []string{"ok:a"}) {
		t.Errorf("inner verdicts after resume = %#v (%v), want typed []string", v, err)
	}
}

func TestResumeInsideBranchRestoresGoverningDecision(t *testing.T) {
	ask := flow.Pausable{
		Execute: func(ctx context.Context, s *flow.Scope) (*flow.Pause, error) { return &flow.Pause{Data: 1}, nil },
		Resume:  func(ctx context.Context, s *flow.Scope, in json.RawMessage) error { return nil },
	}
	c := flow.NewBuilder("br").
		Decider("outer", pick("x"),
			flow.Branch("x").
				Decider("inner", pick("y"), flow.Branch("y").Pausable("ask", ask)).
				Stage("after-inner", noop)).
		Stage("tail", noop).
		MustBuild()
	res, err := c.Run(context.Background(), nil)
	if err != nil || !res.Paused {
		t.Fatalf("run: %v", err)
	}
	cp, err := decodeCheckpoint(mustJSON(t, res.Checkpoint))
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.Resume(context.Background(), cp, json.RawMessage(`true`))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, cm := range out.Record.Commits {
		got[cm.RuntimeStageID] = ""
		if cm.Control != nil {
			got[cm.RuntimeStageID] = cm.Control.Decider
		}
	}
	want := map[string]string{"input": "", "outer#0": "", "inner#1": "outer#0", "ask#2": "inner#1",
		"ask#3": "inner#1", "after-inner#4": "outer#0", "tail#5": ""}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("controls after resume (-want +got):\n%s", diff)
	}
}
