// The record's structure is flow's description of the agent chart: pinned
// by a golden, and checked against the chart's loop head when a layer mounts
// a subflow there.

package agent_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
)

func TestRecordStructureGolden(t *testing.T) {
	a, err := agent.New(scripted.New(scripted.Reply{Content: "ok"}), agent.WithTools(statusTool(t, nil)))
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Run(context.Background(), agent.Input{Message: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	raw := res.Record.Structure
	var st flow.Structure
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatalf("structure is not flow's: %v", err)
	}
	// Both back-edges reach the loop head, context.
	var loops []flow.StructureEdge
	for _, e := range st.Edges {
		if e.Kind == "loop" {
			loops = append(loops, e)
		}
	}
	wantLoops := []flow.StructureEdge{{From: "tool-calls", To: "context", Kind: "loop"}, {From: "wrap-up", To: "context", Kind: "loop"}}
	if diff := cmp.Diff(wantLoops, loops); diff != "" {
		t.Errorf("loop edges (-want +got):\n%s", diff)
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, raw, "", "  "); err != nil {
		t.Fatal(err)
	}
	pretty.WriteByte('\n')
	path := filepath.Join("testdata", "structure.golden.json")
	if *update {
		if err := os.WriteFile(path, pretty.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), pretty.String()); diff != "" {
		t.Errorf("%s (-want +got):\n%s", path, diff)
	}
}
