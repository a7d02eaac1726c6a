package flow_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/flow"
)

// A checkpoint whose counters disagree with its own log is refused by field, before any
// stage runs; the one the fuzzer found (issue 12 item 3) decoded executionCount as 0.
func TestResumeRefusesCountersTheLogContradicts(t *testing.T) {
	c := agentChart(t, 3, 2)
	res, err := c.Run(bg(), map[string]any{"userMessage": "hi", "maxIterations": 5}, flow.WithRunID("cp"), fixedClock)
	if err != nil || !res.Paused {
		t.Fatalf("seed run: %v", err)
	}
	good, _ := json.Marshal(res.Checkpoint)
	cases := []struct {
		name, from, to, field, reason string
	}{
		{"execution count lost", `"executionCount":7`, `"executionCoint":7`, "executionCount", "is 0, but the log's last execution number is 6, so it must be 7"},
		{"execution count behind", `"executionCount":7`, `"executionCount":3`, "executionCount", "is 3"},
		{"execution count ahead", `"executionCount":7`, `"executionCount":70`, "executionCount", "is 70"},
		{"visit count wrong", `"visitCounts":{"call-llm":1}`, `"visitCounts":{"call-llm":4}`, "visitCounts.call-llm", `is 4, but the log enters "call-llm" 2 time(s), so it must be 1`},
		{"visit count lost", `"visitCounts":{"call-llm":1}`, `"visitCounts":{}`, "visitCounts.call-llm", "is missing"},
		{"visit count of a node no loop returns to", `"visitCounts":{"call-llm":1}`, `"visitCounts":{"call-llm":1,"tool-calls":2}`, "visitCounts.tool-calls", `names "tool-calls", which no loop returns to`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data := strings.Replace(string(good), tc.from, tc.to, 1)
			if data == string(good) {
				t.Fatalf("the seed checkpoint has no %s", tc.from)
			}
			cp, err := decodeCheckpoint([]byte(data))
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.Resume(bg(), cp, json.RawMessage(`"yes"`))
			var ce *flow.CheckpointError
			if !errors.As(err, &ce) || ce.Field != tc.field || !strings.Contains(ce.Reason, tc.reason) {
				t.Errorf("err = %v; want field %s with %q", err, tc.field, tc.reason)
			}
		})
	}
	// The checkpoint as written still resumes.
	cp, _ := decodeCheckpoint(good)
	out, err := c.Resume(bg(), cp, json.RawMessage(`"yes"`))
	if err != nil || out.Record.Validate() != nil {
		t.Fatalf("the good checkpoint: %v", err)
	}
}
