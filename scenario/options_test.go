// Tests for run options: your own tools in place of canned ones, extra agent options.

package scenario

import (
	"context"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/tool"
	"github.com/google/go-cmp/cmp"
)

type statusIn struct {
	Service string `json:"service" jsonschema:"the service to check"`
}

func TestRunWithOwnTools(t *testing.T) {
	f, err := Demo()
	if err != nil {
		t.Fatal(err)
	}
	var asked []string
	status := tool.Must(tool.New("service_status", "Report a service's health.",
		func(ctx context.Context, in statusIn) (tool.Result, error) {
			asked = append(asked, in.Service)
			return tool.Result{Content: in.Service + " is healthy", Status: tool.StatusSuccess}, nil
		}))
	rep, err := Run(context.Background(), f, WithTools(status), WithAgentOptions(agent.WithID("my-agent")))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"checkout"}, asked); d != "" {
		t.Errorf("own tool calls (-want +got):\n%s", d)
	}
	if rep.ToolMessages[0].Content != "checkout is healthy" || !strings.HasPrefix(rep.ToolMessages[1].Content, `[{"version":"v412"`) {
		t.Errorf("served %v", served(rep))
	}
	if rep.Record.Manifest.AgentID != "my-agent" {
		t.Errorf("agent id %q", rep.Record.Manifest.AgentID)
	}
	// The file is unchanged: a plain run serves the canned status again.
	plain, err := Run(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(plain.ToolMessages[0].Content, `"state":"degraded"`) {
		t.Errorf("plain run served %q", plain.ToolMessages[0].Content)
	}
}

func TestRunOptionRefusals(t *testing.T) {
	f, err := Demo()
	if err != nil {
		t.Fatal(err)
	}
	status := tool.Must(tool.New("service_status", "Report a service's health.",
		func(ctx context.Context, in statusIn) (string, error) { return "ok", nil }))
	for _, c := range []struct {
		opts []Option
		want string
	}{
		{[]Option{WithTools(nil)}, "scenario: WithTools: tool 0 is nil"},
		{[]Option{WithTools(status, status)}, `scenario: WithTools: two tools are named "service_status"`},
		{[]Option{WithAgentOptions(agent.WithMaxIterations(0))}, "scenario: the agent refused this scenario: "},
	} {
		_, err := Run(context.Background(), f, c.opts...)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("got %v, want %s…", err, c.want)
		}
	}
	if _, err := Run(context.Background(), nil); err == nil {
		t.Error("a nil file ran")
	}
}
