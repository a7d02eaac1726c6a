package flow_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/flow"
)

func TestSmoke(t *testing.T) {
	count := flow.Key[int]("count")
	notes := flow.List[string]("notes")
	chart, err := flow.NewBuilder("counter").
		Keys(count, notes).
		Stage("seed", func(ctx context.Context, s *flow.Scope) (any, error) {
			count.Set(s, 0)
			return nil, nil
		}).
		Stage("work", func(ctx context.Context, s *flow.Scope) (any, error) {
			n, _ := count.Get(s)
			count.Set(s, n+1)
			notes.Append(s, fmt.Sprint("pass ", n+1))
			return nil, nil
		}).
		Decider("route", func(ctx context.Context, s *flow.Scope) (*flow.Decision, error) {
			return flow.Decide(s, []flow.Rule{{
				Label: "fewer than three passes", Branch: "again",
				When: func(r flow.Reader) bool { n, _ := count.Get(r); return n < 3 },
			}}, "done"), nil
		},
			flow.Branch("again").LoopTo("work"),
			flow.Branch("done").Stage("finish", func(ctx context.Context, s *flow.Scope) (any, error) {
				return notes.Get(s), nil
			}),
		).
		Build()
	if err != nil {
		t.Fatal(err)
	}
	res, err := chart.Run(context.Background(), nil, flow.WithRunID("r1"))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(res.Output); got != "[pass 1 pass 2 pass 3]" {
		t.Errorf("output = %s", got)
	}
	var ids []string
	for _, c := range res.Record.Commits {
		ids = append(ids, c.RuntimeStageID)
	}
	want := "[input seed#0 work#1 route#2 work#3 route#4 work#5 route#6 finish#7]"
	if got := fmt.Sprint(ids); got != want {
		t.Errorf("ids = %s, want %s", got, want)
	}
	b, err := json.Marshal(res.Record)
	if err != nil {
		t.Fatal(err)
	}
	back, err := chart.DecodeRecord(b)
	if err != nil {
		t.Fatal(err)
	}
	v, ok, err := flow.ValueAt(back, 6, "notes")
	if err != nil || !ok || fmt.Sprint(v) != "[pass 1 pass 2 pass 3]" {
		t.Errorf("ValueAt = %v %v %v", v, ok, err)
	}
}
