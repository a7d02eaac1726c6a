// Tests for run options: your own tools in place of canned ones, extra agent options,
// another model.

package scenario

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
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

func TestRunWithProvider(t *testing.T) {
	f, err := Demo()
	if err != nil {
		t.Fatal(err)
	}
	// A model of its own: it checks checkout once, then answers from what it was served.
	var models []string
	live := scripted.Func(func(req *llm.Request, call int, seed int64) scripted.Reply {
		models = append(models, req.Model)
		if call == 1 {
			return scripted.Reply{Content: "Checking.", ToolCalls: []llm.ToolCall{{ID: "live_1", Name: "service_status", Args: json.RawMessage(`{"service":"checkout"}`)}}}
		}
		return scripted.Reply{Content: "Live: checkout is degraded."}
	})
	rep, err := Run(context.Background(), f, WithProvider(live), WithAgentOptions(agent.WithModel("live-1")))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(rep.Answer, "Live: checkout is degraded.") || len(rep.ToolCalls) != 1 || rep.ToolCalls[0].ID != "live_1" {
		t.Errorf("answer %q, calls %+v", rep.Answer, rep.ToolCalls)
	}
	// The canned result is still what the tool serves.
	if !strings.Contains(rep.ToolMessages[0].Content, `"state":"degraded"`) {
		t.Errorf("served %q", rep.ToolMessages[0].Content)
	}
	if d := cmp.Diff([]string{"live-1", "live-1"}, models); d != "" {
		t.Errorf("models asked for (-want +got):\n%s", d)
	}
	// Without a model option the file's agent.model is asked for; a nil provider keeps the
	// scripted replies.
	models = nil
	live2 := scripted.Func(func(req *llm.Request, call int, seed int64) scripted.Reply {
		models = append(models, req.Model)
		return scripted.Reply{Content: "Nothing to check."}
	})
	if _, err := Run(context.Background(), f, WithProvider(live2)); err != nil {
		t.Fatal(err)
	}
	if len(models) != 1 || f.agent.model == "" || models[0] != f.agent.model {
		t.Errorf("models asked for %v, want the file's %q", models, f.agent.model)
	}
	plain, err := Run(context.Background(), f, WithProvider(nil))
	if err != nil || plain.Answer == "" || strings.HasPrefix(plain.Answer, "Live") || len(plain.ToolCalls) != 3 {
		t.Errorf("WithProvider(nil): %v, %d calls, answer %q", err, len(plain.ToolCalls), plain.Answer)
	}
}
