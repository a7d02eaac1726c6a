// Tests of the standing fold of a recorded turn: a live record and its
// decoded JSON fold alike, and a record nothing judged says why.

package record_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/honesty/assess"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
	"github.com/google/go-cmp/cmp"
)

func TestAssessmentOfLiveAndDecodedRecord(t *testing.T) {
	failing := tool.Must(tool.New("disk_usage", "Report how full a host's disk is.",
		func(ctx context.Context, in struct {
			Host string `json:"host" jsonschema:"the host to check"`
		}) (string, error) {
			return "", context.DeadlineExceeded
		}))
	p := scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "disk_usage", Args: json.RawMessage(`{"host":"db-1"}`)}}},
		scripted.Reply{Content: "db-1 is fine."},
	)
	a, err := agent.New(p, agent.WithTools(failing), agent.WithResultsLayer())
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Run(context.Background(), agent.Input{Message: "Is db-1 full?"})
	if err != nil {
		t.Fatal(err)
	}
	live := res.Record.Assessment()
	if live.Standing == assess.StandingNotAssessed || record.NotFolded(live) {
		t.Fatalf("a judged turn folded nothing: %+v", live)
	}
	if diff := cmp.Diff(res.Assessment, live); diff != "" {
		t.Errorf("Result.Assessment differs from the record's fold (-result +record):\n%s", diff)
	}
	data, err := json.Marshal(res.Record)
	if err != nil {
		t.Fatal(err)
	}
	back, err := record.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(live, back.Assessment()); diff != "" {
		t.Errorf("decoded record folds differently (-live +decoded):\n%s", diff)
	}
}

func TestAssessmentOfRecordNothingJudged(t *testing.T) {
	a, err := agent.New(scripted.New(scripted.Reply{Content: "All green."}))
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Run(context.Background(), agent.Input{Message: "Status?"})
	if err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		rec    *record.Record
		reason string
	}{
		"plain agent": {res.Record, "results-layer-not-armed"},
		"nil record":  {nil, "no-record"},
		"empty":       {&record.Record{}, "no-record"},
	} {
		got := tc.rec.Assessment()
		if got.Standing != assess.StandingNotAssessed || len(got.Reasons) != 1 || got.Reasons[0].Reason != tc.reason {
			t.Errorf("%s: assessment = %+v, want not-assessed for %s", name, got, tc.reason)
		}
		if !record.NotFolded(got) {
			t.Errorf("%s: NotFolded = false", name)
		}
	}
}
