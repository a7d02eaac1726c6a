// The trace toolpack: caps, truncation marks, untracked marks, redaction.

package explain_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/explain"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/tool"
	"github.com/agentfootprint/agentfootprint-go/tool/toolrun"
)

func callTool(t *testing.T, tools []*tool.Tool, name, args string) string {
	t.Helper()
	for _, tl := range tools {
		if tl.Name() != name {
			continue
		}
		out, err := toolrun.Execute(context.Background(), tl.Declaration(), json.RawMessage(args))
		if err != nil {
			return "ERROR: " + err.Error()
		}
		s, _ := out.Value.(string)
		return s
	}
	t.Fatalf("no tool %s", name)
	return ""
}

func TestToolpackAgentRun(t *testing.T) {
	r := newRefunds(t)
	rec := r.run(t, refundsModel(false))
	tools, err := explain.Toolpack(rec)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools {
		names = append(names, tl.Name())
	}
	if want := "run_overview explain_answer find_in_trace trace_node trace_slice backtrack who_wrote get_value inspect_tool_call"; strings.Join(names, " ") != want {
		t.Errorf("tools = %v", names)
	}
	if s := callTool(t, tools, "run_overview", `{}`); !strings.Contains(s, "call-llm ×2") || !strings.Contains(s, "complete true") {
		t.Errorf("overview:\n%s", s)
	}
	var ch explain.Chain
	if s := callTool(t, tools, "explain_answer", `{"limit":1}`); !strings.Contains(s, "[truncated: 1 of 3 suspects]") ||
		json.Unmarshal([]byte(strings.SplitN(s, " [truncated", 2)[0]), &ch) != nil || ch.Suspects[0].Unit != "vip-override" {
		t.Errorf("explain_answer: %s", s)
	}
	if s := callTool(t, tools, "find_in_trace", `{"query":"vip override","limit":2}`); !strings.Contains(s, "seed#0 wrote contextCatalog") || !strings.Contains(s, "[truncated: 2 of") {
		t.Errorf("find:\n%s", s)
	}
	if s := callTool(t, tools, "find_in_trace", `{"query":"zebra"}`); !strings.Contains(s, "never enter the record") {
		t.Errorf("miss: %s", s)
	}
	if s := callTool(t, tools, "who_wrote", `{"key":"finalContent"}`); !strings.HasPrefix(s, "prepare-final#8") {
		t.Errorf("who_wrote: %s", s)
	}
	if s := callTool(t, tools, "backtrack", `{"key":"history","element":2}`); !strings.Contains(s, "element 2 was added by tool-calls#4") {
		t.Errorf("backtrack: %s", s)
	}
	if s := callTool(t, tools, "get_value", `{"id":"seed#0","key":"contextCatalog","max":40}`); !strings.Contains(s, "[truncated: 40 of") {
		t.Errorf("get_value: %s", s)
	}
	if s := callTool(t, tools, "inspect_tool_call", `{"toolCallId":"call_1"}`); !strings.Contains(s, `"tool":"lookup_order"`) || !strings.Contains(s, "customer tier VIP") || !strings.Contains(s, `"orderId":"A-17"`) {
		t.Errorf("inspect_tool_call: %s", s)
	}
	if s := callTool(t, tools, "trace_node", `{"id":"nope#9"}`); !strings.HasPrefix(s, "ERROR") {
		t.Errorf("unknown id: %s", s)
	}
}

func TestToolpackFlowRun(t *testing.T) {
	ssn := flow.Key[string]("ssn")
	income := flow.Key[float64]("income")
	payload := flow.Key[string]("payload")
	ok := flow.Key[bool]("ok")
	c := flow.NewBuilder("kyc").Keys(ssn, income, payload, ok).Redact("ssn").
		Stage("fetch", func(ctx context.Context, s *flow.Scope) (any, error) {
			env := s.Env()
			v, _ := env["income"].(float64)
			income.Set(s, v)
			ssn.Set(s, "123-45-6789")
			payload.Set(s, strings.Repeat("tradeline ", 1000))
			return nil, nil
		}).
		Decider("route", func(ctx context.Context, s *flow.Scope) (*flow.Decision, error) {
			return flow.Decide(s, []flow.Rule{{Label: "income known", Branch: "yes", When: func(r flow.Reader) bool {
				v, _ := income.Get(r)
				return v > 0
			}}}, "no"), nil
		},
			flow.Branch("yes").Stage("accept", func(ctx context.Context, s *flow.Scope) (any, error) { ok.Set(s, true); return nil, nil }),
			flow.Branch("no").Stage("reject", func(ctx context.Context, s *flow.Scope) (any, error) { ok.Set(s, false); return nil, nil }),
		).MustBuild()
	res, err := c.Run(flow.WithEnv(context.Background(), map[string]any{"income": 5000.0}), nil)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(res.Record)
	log, err := explain.DecodeLog(data)
	if err != nil {
		t.Fatal(err)
	}
	tools, err := explain.FlowToolpack(log)
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) != 7 {
		t.Errorf("%d tools, want 7 (no agent-only tools)", len(tools))
	}
	s := callTool(t, tools, "trace_slice", `{"id":"accept#2"}`)
	if !strings.Contains(s, "[control: income known] route#1") || !strings.Contains(s, "[income] fetch#0 ⚠") {
		t.Errorf("slice:\n%s", s)
	}
	for _, q := range []string{"123-45", "6789"} {
		if s := callTool(t, tools, "find_in_trace", `{"query":"`+q+`"}`); strings.Contains(s, "wrote ssn") {
			t.Errorf("find revealed the redacted key: %s", s)
		}
	}
	if s := callTool(t, tools, "get_value", `{"id":"accept#2","key":"ssn"}`); strings.Contains(s, "123") || !strings.Contains(s, "redacted") {
		t.Errorf("get_value ssn: %s", s)
	}
	if s := callTool(t, tools, "trace_node", `{"id":"fetch#0"}`); strings.Contains(s, "123") || !strings.Contains(s, "⚠ untracked: env") || !strings.Contains(s, "wrote ssn (set): [redacted]") {
		t.Errorf("node:\n%s", s)
	}
	big := callTool(t, tools, "get_value", `{"id":"fetch#0","key":"payload","max":100000}`)
	if n := len([]rune(big)); n > 8100 || !strings.Contains(big, "[truncated: 8000 of") {
		t.Errorf("get_value payload: %d chars, want the 8000 hard cap marked", n)
	}
}
