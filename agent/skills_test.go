// Tests of skills: inactive until read, then placed with their tools.

package agent_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
	"github.com/google/go-cmp/cmp"
)

func TestSkillActivation(t *testing.T) {
	restart := tool.Must(tool.New("restart_service", "Restart a service.",
		func(ctx context.Context, in statusIn) (string, error) { return "restarted " + in.Service, nil }))
	runbook := inject.Must(inject.Skill("restart-runbook", "Restart runbook: drain traffic first, then restart.", "restart_service"))
	p := scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{call("k1", "read_skill", `{"id":"restart-runbook"}`)}},
		scripted.Reply{ToolCalls: []llm.ToolCall{call("r1", "restart_service", `{"service":"checkout"}`)}},
		scripted.Reply{Content: "Restarted."},
	)
	a, err := agent.New(p, agent.WithTools(statusTool(t, nil), restart), agent.WithUnits(runbook))
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Run(context.Background(), agent.Input{Message: "restart checkout"})
	if err != nil {
		t.Fatal(err)
	}
	reqs := p.Requests()
	names := func(r *llm.Request) []string {
		var out []string
		for _, t := range r.Tools {
			out = append(out, t.Name)
		}
		return out
	}
	if diff := cmp.Diff([]string{"service_status", "read_skill"}, names(reqs[0])); diff != "" {
		t.Errorf("tools before the skill (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"service_status", "restart_service", "read_skill"}, names(reqs[1])); diff != "" {
		t.Errorf("tools after the skill (-want +got):\n%s", diff)
	}
	if len(reqs[0].System) != 0 || len(reqs[1].System) != 1 || reqs[1].System[0].Unit != "restart-runbook" {
		t.Errorf("system segments: %+v / %+v", reqs[0].System, reqs[1].System)
	}
	cu1 := valueAt[state.ContextUnits](t, res.Record, "context#1", "contextUnits")
	cu2 := valueAt[state.ContextUnits](t, res.Record, "context#5", "contextUnits")
	if cu1.Units[0].Active || cu1.Units[0].Trigger.Kind != inject.TriggerLLMActivated {
		t.Errorf("iteration 1 entry = %s", mustJSON(t, cu1.Units[0]))
	}
	want := &inject.Activation{ToolCallID: "k1", Iteration: 1}
	if diff := cmp.Diff(want, cu2.Units[0].Trigger.ActivatedBy); diff != "" || !cu2.Units[0].Active {
		t.Errorf("activation (-want +got):\n%s", diff)
	}
	if res.Answer != "Restarted." {
		t.Errorf("answer = %q", res.Answer)
	}
	if _, err := agent.New(p, agent.WithTools(tool.Must(tool.NewRaw("read_skill", "x", []byte(`{"type":"object"}`),
		func(context.Context, json.RawMessage) (any, error) { return "", nil }))), agent.WithUnits(runbook)); err == nil {
		t.Error("a user tool named read_skill was accepted beside skills")
	}
}
