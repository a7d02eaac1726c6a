// Golden test of a plain run's shape: every commit's reads and writes, and
// the event stream. It pins that an agent with no honesty layer armed writes
// no key, node or event beyond these.

package agent_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files")

func TestPlainRunShapeGolden(t *testing.T) {
	p := scripted.New(
		scripted.Reply{Content: "Looking.", ToolCalls: []llm.ToolCall{call("c1", "service_status", `{"service":"checkout"}`)}},
		scripted.Reply{Content: "Checkout is degraded."},
	)
	a, err := agent.New(p, agent.WithTools(statusTool(t, nil)), agent.WithSystemPrompt("You triage incidents."))
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Run(context.Background(), agent.Input{Message: "What is broken?"})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	rec := res.Record
	for _, c := range rec.Log.Commits {
		var ops []string
		for _, op := range c.Ops {
			ops = append(ops, op.Key+":"+string(op.Verb))
		}
		fmt.Fprintf(&b, "%s reads=%v ops=%v", c.RuntimeStageID, c.Reads, ops)
		if c.Control != nil {
			fmt.Fprintf(&b, " control=%s/%s", c.Control.Branch, c.Control.Rule)
		}
		b.WriteString("\n")
	}
	b.WriteString("events:\n")
	for _, e := range rec.Events.All() {
		fmt.Fprintf(&b, "%s %s\n", e.Meta.RuntimeStageID, e.Type)
	}
	got := b.String()
	path := filepath.Join("testdata", "plain_run.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("plain run shape (-want +got):\n%s", diff)
	}
}
