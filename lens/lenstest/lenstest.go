// Package lenstest builds the run records the lens is tested on: both parts of
// the built-in demo, a paused run, a failed run and a long run, each made by a
// real agent on the scripted model (offline, deterministic).
//
// The records are real: every one comes from agent.Run or scenario.Run, never
// from JSON written by hand, so a change in what the agent records shows up in
// the lens tests.
package lenstest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/scenario"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// DemoPart1 runs part 1 of the built-in demo (an empty search of an hour the
// log store does not hold) and returns its record.
func DemoPart1(ctx context.Context) (*record.Record, error) {
	return runScenario(ctx, scenario.Demo)
}

// DemoPart2 runs part 2 of the built-in demo (a look-back the tool clamped)
// and returns its record.
func DemoPart2(ctx context.Context) (*record.Record, error) {
	return runScenario(ctx, scenario.LookbackDemo)
}

func runScenario(ctx context.Context, load func() (*scenario.File, error)) (*record.Record, error) {
	f, err := load()
	if err != nil {
		return nil, fmt.Errorf("lenstest: loading the demo scenario: %w", err)
	}
	rep, err := scenario.Run(ctx, f)
	if err != nil {
		return nil, fmt.Errorf("lenstest: running the demo scenario: %w", err)
	}
	if rep == nil || rep.Record == nil {
		return nil, errors.New("lenstest: the demo scenario left no record")
	}
	return rep.Record, nil
}

// Paused runs an agent whose second tool call asks a person to approve a
// restart, so the turn stops and waits. The record is the paused turn's.
func Paused(ctx context.Context) (*record.Record, error) {
	status, err := statusTool()
	if err != nil {
		return nil, err
	}
	approve, err := tool.New("ask_approval", "Ask the operator to approve an action.",
		func(ctx context.Context, in struct {
			Action string `json:"action" jsonschema:"the action needing approval"`
		}) (string, error) {
			return "", tool.Pause(map[string]any{"question": "Approve " + in.Action + "?"})
		})
	if err != nil {
		return nil, fmt.Errorf("lenstest: %w", err)
	}
	p := scripted.New(
		scripted.Reply{Content: "Checking checkout before asking to restart it.", ToolCalls: []llm.ToolCall{
			call("call_status", "service_status", `{"service":"checkout"}`),
			call("call_approve", "ask_approval", `{"action":"restart checkout"}`),
		}},
		scripted.Reply{Content: "Restart approved."},
	)
	res, err := run(ctx, p, "paused-restart", "Restart checkout if it is unhealthy.", 4, status, approve)
	if err != nil {
		return nil, err
	}
	if !res.Paused {
		return nil, errors.New("lenstest: the paused run did not pause")
	}
	return res.Record, nil
}

// FailureMessage is the provider error the failed run ends on.
const FailureMessage = "the model server answered 503: overloaded, try again later"

// Failed runs an agent whose second model call fails on the provider's side.
// The record is the failed turn's.
func Failed(ctx context.Context) (*record.Record, error) {
	status, err := statusTool()
	if err != nil {
		return nil, err
	}
	p := scripted.New(
		scripted.Reply{Content: "Let me check checkout.", ToolCalls: []llm.ToolCall{call("call_status", "service_status", `{"service":"checkout"}`)}},
		scripted.Reply{Err: &llm.Error{Provider: "scripted", Kind: llm.KindServer, Resumable: true, Message: FailureMessage}},
	)
	res, runErr := run(ctx, p, "failed-triage", "Is checkout healthy?", 4, status)
	if runErr == nil {
		return nil, errors.New("lenstest: the failed run did not fail")
	}
	if res == nil || res.Record == nil {
		return nil, fmt.Errorf("lenstest: the failed run left no record: %w", runErr)
	}
	return res.Record, nil
}

// LongNeedle is the argument of the long run's last tool call, for a search
// to find.
const LongNeedle = "shard-final-sweep"

// Long runs an agent that calls search_logs n times, one call per model
// reply, each result a realistic page of log lines (about 1 KB), then
// answers. The last call searches for LongNeedle.
func Long(ctx context.Context, n int) (*record.Record, error) {
	if n < 1 {
		return nil, fmt.Errorf("lenstest: Long(%d): want at least one call", n)
	}
	logs, err := tool.New("search_logs", "Search one shard of the log store for a query.",
		func(ctx context.Context, in struct {
			Shard string `json:"shard" jsonschema:"the shard to search"`
			Query string `json:"query" jsonschema:"what to look for"`
		}) (string, error) {
			return logPage(in.Shard, in.Query), nil
		})
	if err != nil {
		return nil, fmt.Errorf("lenstest: %w", err)
	}
	replies := make([]scripted.Reply, 0, n+1)
	for i := 1; i <= n; i++ {
		shard := fmt.Sprintf("shard-%03d", i)
		if i == n {
			shard = LongNeedle
		}
		replies = append(replies, scripted.Reply{
			Content:   fmt.Sprintf("Step %d: searching %s for payment timeouts.", i, shard),
			ToolCalls: []llm.ToolCall{call(fmt.Sprintf("call_%03d", i), "search_logs", fmt.Sprintf(`{"shard":%q,"query":"payment timeout"}`, shard))},
		})
	}
	replies = append(replies, scripted.Reply{Content: fmt.Sprintf("Across %d shards the payment timeouts start at 08:58 UTC, right after deploy v412.", n)})
	res, err := run(ctx, scripted.New(replies...), "long-sweep", "Sweep every shard for payment timeouts since 08:00 UTC.", n+1, logs)
	if err != nil {
		return nil, err
	}
	return res.Record, nil
}

// logPage is one shard's search result: eight log lines naming the shard.
func logPage(shard, query string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"shard":%q,"query":%q,"lines":[`, shard, query)
	for i := range 8 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"2026-09-26T09:%02d:%02dZ ERROR checkout payment client timeout after 500ms (order %s-%04d, attempt %d)"`, 4+i, 7*i%60, shard, 1000+37*i, i%3+1)
	}
	b.WriteString(`],"truncated":false}`)
	return b.String()
}

// statusTool reports a degraded checkout.
func statusTool() (*tool.Tool, error) {
	t, err := tool.New("service_status", "Report a service's health.",
		func(ctx context.Context, in struct {
			Service string `json:"service" jsonschema:"the service to check"`
		}) (string, error) {
			return fmt.Sprintf(`{"service":%q,"state":"degraded","errorRate":0.12}`, in.Service), nil
		})
	if err != nil {
		return nil, fmt.Errorf("lenstest: %w", err)
	}
	return t, nil
}

// run builds the agent and runs one turn. It is the one place this package
// constructs an agent.
func run(ctx context.Context, p llm.Provider, id, message string, maxIter int, tools ...*tool.Tool) (*agent.Result, error) {
	at := time.Date(2026, 9, 26, 10, 0, 0, 0, time.UTC)
	a, err := agent.New(p, agent.WithID(id), agent.WithTools(tools...), agent.WithMaxIterations(maxIter),
		agent.WithClock(func() time.Time { return at }))
	if err != nil {
		return nil, fmt.Errorf("lenstest: building agent %s: %w", id, err)
	}
	return a.Run(ctx, agent.Input{Message: message})
}

// call is a tool call with its arguments parsed.
func call(id, name, args string) llm.ToolCall {
	a, err := llm.ParseArgs([]byte(args))
	return llm.ToolCall{ID: id, Name: name, Args: a, ArgsError: err}
}
