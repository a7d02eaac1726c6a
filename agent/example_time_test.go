// Runnable examples of the inputs layer and the time layer.

package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/clock"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

type logsIn struct {
	Service string `json:"service" jsonschema:"the service whose logs to search"`
	Window  string `json:"window" jsonschema:"how far back to look, such as 2h"`
}

// The model leaves the window out; the tool's assume rule fills it, the
// record files it as assumed, and the answer says so under its limits.
func ExampleWithInputsLayer() {
	search := tool.Must(tool.New("search_logs", "Search a service's error logs.",
		func(ctx context.Context, in logsIn) ([]string, error) { return []string{}, nil },
		tool.WithAskOrAssume(map[string]tool.Rule{"window": {Assume: "2h"}})))
	model := scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "search_logs", Args: json.RawMessage(`{"service":"checkout"}`)}}},
		scripted.Reply{Content: "No errors."},
	)
	a, err := agent.New(model, agent.WithTools(search), agent.WithInputsLayer(), agent.WithLimitsBlock())
	if err != nil {
		panic(err)
	}
	res, err := a.Run(context.Background(), agent.Input{Message: "Any errors in checkout?"})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Answer)
	fmt.Println(res.Assessment.Standing)
	// Output:
	// No errors.
	//
	// ---
	//
	// Assumed (a tool's rule chose these values, not the person):
	// - window = "2h" (search_logs)
	// not-sure
}

// The turn's clock comes from the app (the message's time and the person's
// zone); the tool reads it from its call, and the ledger records it.
func ExampleWithTimeLayer() {
	search := tool.Must(tool.New("search_logs", "Search a service's error logs.",
		func(ctx context.Context, in logsIn) (string, error) {
			call, err := tool.CallFrom(ctx)
			if err != nil {
				return "", err
			}
			ct := call.Time
			return fmt.Sprintf("searched %s back from %s", in.Window, ct.Now.Format(time.RFC3339)), nil
		},
		tool.WithAskOrAssume(map[string]tool.Rule{"window": {Assume: "1h"}}),
		tool.WithPeriod(tool.Period{Argument: "window", Spelling: tool.SpellingLookback})))
	model := scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "search_logs", Args: json.RawMessage(`{"service":"checkout","window":"2h"}`)}}},
		scripted.Reply{Content: "No errors."},
	)
	a, err := agent.New(model, agent.WithTools(search), agent.WithTimeLayer("America/Los_Angeles"))
	if err != nil {
		panic(err)
	}
	now := time.Date(2026, 10, 9, 15, 40, 0, 0, time.UTC)
	res, err := a.Run(context.Background(), agent.Input{Message: "Errors in the last two hours?", Time: &clock.Given{Now: now}})
	if err != nil {
		panic(err)
	}
	for _, m := range res.History {
		if m.Role == llm.RoleTool {
			fmt.Println(m.Content)
		}
	}
	for _, r := range res.Record.Findings() {
		if r.Kind() == "clock" {
			b, _ := json.Marshal(r)
			fmt.Println(string(b))
		}
	}
	// Output:
	// searched 2h back from 2026-10-09T15:40:00Z
	// {"kind":"clock","turn":1,"iteration":1,"now":"2026-10-09T15:40:00Z","nowSource":"app","zone":"America/Los_Angeles","zoneSource":"builder"}
}
