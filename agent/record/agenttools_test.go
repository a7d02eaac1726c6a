package record

import (
	"strings"
	"testing"
)

// TestDecodeRefusesAMisplacedAgentToolRun: an agentToolRuns entry must name
// a free place under subflows that exist, and hold a log.
func TestDecodeRefusesAMisplacedAgentToolRun(t *testing.T) {
	const head = `{"format":"agentfootprint-go.record/4","runId":"r","chartId":"c","commits":[{"idx":0,"stage":"input","stageId":"input","runtimeStageId":"input"}],`
	const log = `{"runId":"q1","chartId":"c","commits":[{"idx":0,"stage":"input","stageId":"input","runtimeStageId":"input"}]}`
	for _, tc := range []struct {
		name, runs, want string
	}{
		{"no place", `[{"at":[],"log":` + log + `}]`, "agentToolRuns[0].at: want 1 to"},
		{"missing parent", `[{"at":["agent:a#1","q1"],"log":` + log + `}]`, `agentToolRuns[0].at: the log has no subflow "agent:a#1"`},
		{"taken", `[{"at":["q1"],"log":` + log + `},{"at":["q1"],"log":` + log + `}]`, `agentToolRuns[1].at: "q1" is there already`},
		{"not a log", `[{"at":["q1"],"log":{"commits":{}}}]`, "agentToolRuns[0].log:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode([]byte(head + `"agentToolRuns":` + tc.runs + `}`))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Decode = %v, want an error containing %q", err, tc.want)
			}
		})
	}
	rec, err := Decode([]byte(head + `"agentToolRuns":[{"at":["q1"],"log":` + log + `}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if sub := rec.Log.Subflows["q1"]; sub == nil || sub.RunID != "q1" {
		t.Errorf("Subflows[q1] = %+v, want the run q1", sub)
	}
}
