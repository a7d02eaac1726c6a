package wirecheck

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/anthropic"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// An agent whose step budget runs out with calls pending makes its wrap-up call through the
// Anthropic client and Ollama's Anthropic middleware: the request must declare the agent's
// real tools (the native request behind the middleware carries their descriptions), not
// placeholders with an open schema (issue 12 item 11).
func TestAgentWrapUpDeclaresItsTools(t *testing.T) {
	srv, n := server(t)
	p := anthropic.New(anthropic.Options{BaseURL: srv.URL, APIKey: "unused", Retry: llm.RetryPolicy{Attempts: 1}})
	var tools []*tool.Tool
	for _, d := range []struct{ name, desc string }{{"disk_usage", "Disk usage of a host."}, {"top_processes", "Busiest processes."}} {
		tl, err := tool.NewRaw(d.name, d.desc, schema, func(ctx context.Context, args json.RawMessage) (any, error) {
			return map[string]any{"used": 0.97}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		tools = append(tools, tl)
	}
	a, err := agent.New(p, agent.WithModel("qwen3:0.6b"), agent.WithTools(tools...), agent.WithMaxIterations(1))
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Run(context.Background(), agent.Input{Message: "use two tools"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Answer != "Hello, world." {
		t.Errorf("answer = %q", res.Answer)
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if len(n.seen) < 2 {
		t.Fatalf("the middleware saw %d requests, want the call and the wrap-up", len(n.seen))
	}
	last := n.seen[len(n.seen)-1]
	var declared []string
	for _, tl := range last.Tools {
		declared = append(declared, tl.Function.Name+": "+tl.Function.Description)
	}
	if diff := cmp.Diff([]string{"disk_usage: Disk usage of a host.", "top_processes: Busiest processes."}, declared); diff != "" {
		t.Errorf("the wrap-up's tools behind the middleware (-want +got):\n%s", diff)
	}
}
