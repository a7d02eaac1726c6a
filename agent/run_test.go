// End-to-end tests of one turn through the public API on the scripted model.

package agent_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/internal/agenttest"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/google/go-cmp/cmp"
)

func TestMultiIterationRun(t *testing.T) {
	var c counter
	p := scripted.New(
		scripted.Reply{Content: "Checking checkout.", ToolCalls: []llm.ToolCall{call("c1", "service_status", `{"service":"checkout"}`)}},
		scripted.Reply{ToolCalls: []llm.ToolCall{
			call("c2", "service_status", `{"service":"payments"}`),
			call("c3", "service_status", `{"service":"search"}`),
		}},
		scripted.Reply{Content: "Checkout, payments and search are degraded."},
	)
	a, err := agent.New(p, agent.WithTools(statusTool(t, &c)), agent.WithSystemPrompt("You triage incidents."))
	if err != nil {
		t.Fatal(err)
	}
	var log eventLog
	log.on(a)
	res, err := a.Run(context.Background(), agent.Input{Message: "What is broken?"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Answer != "Checkout, payments and search are degraded." {
		t.Errorf("answer = %q", res.Answer)
	}
	if res.Iterations != 3 {
		t.Errorf("iterations = %d, want 3", res.Iterations)
	}
	if diff := cmp.Diff([]string{"status:checkout", "status:payments", "status:search"}, c.List()); diff != "" {
		t.Errorf("tool calls (-want +got):\n%s", diff)
	}
	wantIDs := []string{"input", "seed#0", "context#1", "call-llm#2", "sf-route#3", "tool-calls#4",
		"context#5", "call-llm#6", "sf-route#7", "tool-calls#8",
		"context#9", "call-llm#10", "sf-route#11", "prepare-final#12", "break-final#13"}
	if diff := cmp.Diff(wantIDs, stageIDs(res.Record)); diff != "" {
		t.Errorf("commit log (-want +got):\n%s", diff)
	}
	wantEvents := []string{
		"agent.turn_start",
		"context.evaluated", "agent.iteration_start", "llm.request", "llm.response", "agent.route_decided",
		"tools.start", "tools.result", "agent.iteration_end",
		"context.evaluated", "agent.iteration_start", "llm.request", "llm.response", "agent.route_decided",
		"tools.start", "tools.result", "tools.start", "tools.result", "agent.iteration_end",
		"context.evaluated", "agent.iteration_start", "llm.request", "llm.response", "agent.route_decided",
		"agent.iteration_end", "agent.turn_end",
	}
	var nonToken []string
	for _, ty := range log.types() {
		if ty != "llm.token" {
			nonToken = append(nonToken, ty)
		}
	}
	if diff := cmp.Diff(wantEvents, nonToken); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	// A token listener makes call-llm stream: the deltas rebuild each reply.
	var streamed strings.Builder
	for _, e := range log.of(event.LLMToken) {
		streamed.WriteString(e.Payload.(event.LLMTokenPayload).Content)
	}
	if got := streamed.String(); got != "Checking checkout."+"Checkout, payments and search are degraded." {
		t.Errorf("streamed text = %q", got)
	}
	// The third request carries every tool result in call order.
	reqs := p.Requests()
	if len(reqs) != 3 {
		t.Fatalf("requests = %d", len(reqs))
	}
	got := toolMessages(reqs[2].Messages)
	want := []string{"c1:checkout is degraded: error rate 12%", "c2:payments is degraded: error rate 12%", "c3:search is degraded: error rate 12%"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tool messages (-want +got):\n%s", diff)
	}
	if len(reqs[0].System) != 1 || reqs[0].System[0].Text != "You triage incidents." {
		t.Errorf("system = %+v", reqs[0].System)
	}
	starts := log.of(event.ToolsStart)
	if pc := starts[1].Payload.(event.ToolsStartPayload).ParallelCount; pc != 2 {
		t.Errorf("parallelCount of a 2-call batch = %d", pc)
	}
	if pc := starts[0].Payload.(event.ToolsStartPayload).ParallelCount; pc != 0 {
		t.Errorf("parallelCount of a 1-call batch = %d", pc)
	}
	if res.Usage.Input == 0 || res.Usage.Output == 0 {
		t.Errorf("usage = %+v", res.Usage)
	}
	if !strings.Contains(mustJSON(t, res.Record), `"format":"`+record.Format+`"`) {
		t.Error("record JSON lacks its format")
	}
}

// On the system clock an event's time is the run's start plus the monotonic
// time since: times and offsets never decrease within a run, and time minus
// offset is the start's millisecond (or the next, where the start's own
// fraction of a millisecond carries).
func TestEventTimesFollowTheMonotonicClock(t *testing.T) {
	// The model takes a few milliseconds a call, so the times move.
	replies := ratioReplies()[ratioCalls-3:]
	for i := range replies {
		replies[i].Delay = 3 * time.Millisecond
	}
	a, err := agent.New(scripted.New(replies...), agent.WithTools(agenttest.RatioTool()))
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Run(context.Background(), agent.Input{Message: "What is broken?"})
	if err != nil {
		t.Fatal(err)
	}
	evs := res.Record.Events
	if last := evs.At(evs.Len() - 1).Meta; last.RunOffsetMs < 9 {
		t.Fatalf("the last event is %d ms into the run, want at least the model's 9 ms", last.RunOffsetMs)
	}
	first := evs.At(0).Meta
	base := first.WallClockMs - first.RunOffsetMs
	var wall, offset int64
	for i, ev := range evs.All() {
		m := ev.Meta
		if m.WallClockMs < wall || m.RunOffsetMs < offset {
			t.Fatalf("event %d (%s): time %d ms, offset %d ms after %d, %d", i, ev.Type, m.WallClockMs, m.RunOffsetMs, wall, offset)
		}
		if d := m.WallClockMs - m.RunOffsetMs - base; d < -1 || d > 1 {
			t.Fatalf("event %d (%s): time %d minus offset %d is %d ms from the first event's", i, ev.Type, m.WallClockMs, m.RunOffsetMs, d)
		}
		wall, offset = m.WallClockMs, m.RunOffsetMs
	}
}
