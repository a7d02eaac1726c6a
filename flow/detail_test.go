// Tests for commit details: a node's commits share one CommitDetail while
// its facts repeat, get a new one when any fact changes, and a commit
// without a detail is refused by validation.

package flow_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/google/go-cmp/cmp"
)

func TestLoopCommitsShareTheirDetail(t *testing.T) {
	res, err := loopChart(t, 3, "").Run(context.Background(), nil, flow.WithRunID("r"))
	if err != nil {
		t.Fatal(err)
	}
	// seed, then (route, work) × 3, then route, final.
	byStage := map[string][]*flow.Commit{}
	for _, c := range res.Record.Commits {
		byStage[c.StageID] = append(byStage[c.StageID], c)
	}
	tests := []struct {
		stage   string
		commits int
		details int
	}{
		// The last route decides "done", a different decision: a new detail.
		{"route", 4, 2},
		{"work", 3, 1},
		{"final", 1, 1},
	}
	for _, tt := range tests {
		cs := byStage[tt.stage]
		seen := map[*flow.CommitDetail]bool{}
		for _, c := range cs {
			seen[c.CommitDetail] = true
		}
		if len(cs) != tt.commits || len(seen) != tt.details {
			t.Errorf("%s: %d commits with %d details, want %d with %d", tt.stage, len(cs), len(seen), tt.commits, tt.details)
		}
	}
	// Sharing never blurs what each commit says.
	var got []string
	for _, c := range byStage["route"] {
		got = append(got, c.RuntimeStageID+" "+c.Decision.Chosen[0])
	}
	want := []string{"route#1 work", "route#3 work", "route#5 work", "route#7 done"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("route commits (-want +got):\n%s", diff)
	}
}

func TestChangedReadsGetANewDetail(t *testing.T) {
	a, b := flow.Key[int]("a"), flow.Key[int]("b")
	pass := 0
	c := flow.NewBuilder("reads").Keys(a, b).
		Stage("s", func(ctx context.Context, s *flow.Scope) (any, error) {
			a.Get(s)
			if pass == 1 {
				b.Get(s)
			}
			pass++
			if pass == 3 {
				s.Break("done")
			}
			return nil, nil
		}).LoopTo("s").MustBuild()
	res, err := c.Run(context.Background(), map[string]any{"a": 1, "b": 2})
	if err != nil {
		t.Fatal(err)
	}
	cs := res.Record.Commits[1:]
	var reads [][]string
	for _, c := range cs {
		reads = append(reads, c.Reads)
	}
	if diff := cmp.Diff([][]string{{"a"}, {"a", "b"}, {"a"}}, reads); diff != "" {
		t.Errorf("reads (-want +got):\n%s", diff)
	}
	if cs[0].CommitDetail == cs[1].CommitDetail || cs[1].CommitDetail == cs[2].CommitDetail {
		t.Error("commits with different reads share a detail")
	}
}

func TestValidateRefusesACommitWithoutDetail(t *testing.T) {
	var rec flow.Record
	if err := json.Unmarshal([]byte(`{"runId":"r","chartId":"c","commits":[{"idx":0,"stage":"input","stageId":"input","runtimeStageId":"input","reads":[],"ops":[]}]}`), &rec); err != nil {
		t.Fatal(err)
	}
	if err := rec.Validate(); err != nil {
		t.Fatalf("decoded record: %v", err)
	}
	rec.Commits[0] = &flow.Commit{Idx: 0, RuntimeStageID: flow.InputStageID}
	err := rec.Validate()
	var ce *flow.CorruptLogError
	if !errors.As(err, &ce) || ce.Field != "commits[0]" {
		t.Errorf("Validate = %v, want a CorruptLogError on commits[0]", err)
	}
}
