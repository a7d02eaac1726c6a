// This file checks a scenario report's events spanning several turns, a
// pause and its resume among them: one trace per turn, in order.

package otelexport_test

import (
	"context"
	"os"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/scenario"
	"github.com/google/go-cmp/cmp"
)

func TestTurnsOfAScenario(t *testing.T) {
	data, err := os.ReadFile("../scenario/testdata/valid/pause-followup.json")
	if err != nil {
		t.Fatal(err)
	}
	f, err := scenario.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := scenario.Run(context.Background(), f)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	starts := 0
	for _, e := range rep.Events {
		if e.Type == event.AgentTurnStart {
			starts++
		}
	}
	x, sr := recorded(t)
	if err := x.ExportEvents(context.Background(), rep.Events, rep.Record); err != nil {
		t.Fatal(err)
	}
	var outcomes []string
	var pauses, resumes int
	for _, n := range fold(sr.Ended()) {
		outcomes = append(outcomes, n.Attributes["agentfootprint.turn.outcome"])
		for _, e := range n.Events {
			switch e.Name {
			case string(event.PauseRequest):
				pauses++
			case string(event.PauseResume):
				resumes++
			}
		}
	}
	t.Logf("turn starts %d, outcomes %v, pauses %d, resumes %d", starts, outcomes, pauses, resumes)
	if len(outcomes) != starts || starts < 2 {
		t.Fatalf("%d traces for %d turn starts: want one per turn, at least two", len(outcomes), starts)
	}
	want := make([]string, starts)
	for i := range want {
		want[i] = "answered"
	}
	if diff := cmp.Diff(want, outcomes); diff != "" {
		t.Errorf("turn outcomes (-want +got):\n%s", diff)
	}
	if pauses != 1 || resumes != 1 {
		t.Errorf("%d pauses and %d resumes on the roots, want 1 and 1", pauses, resumes)
	}
}
