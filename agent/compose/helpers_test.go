// Test helpers of the composition tests: small tools and agents (copies of
// the agent package's own test helpers, which an external test package of
// another directory cannot reach).

package compose_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

var (
	rlQ     = coverage.Span{From: "2026-09-26T09:00:00Z", To: "2026-09-26T10:00:00Z"}
	rlStale = coverage.Period{Queried: rlQ, Held: coverage.Held{Span: coverage.Span{From: "2026-08-27T02:00:00Z", To: "2026-09-26T02:00:00Z"}}}
)

func call(id, name, args string) llm.ToolCall {
	a, aerr := llm.ParseArgs([]byte(args))
	return llm.ToolCall{ID: id, Name: name, Args: a, ArgsError: aerr}
}

func oneCall(id string) scripted.Reply {
	return scripted.Reply{ToolCalls: []llm.ToolCall{call(id, "backup_runs", `{}`)}}
}

func mustNew(t testing.TB, p llm.Provider, opts ...agent.Option) *agent.Agent {
	t.Helper()
	a, err := agent.New(p, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func toolMessages(h []llm.Message) []string {
	var out []string
	for _, m := range h {
		if m.Role == llm.RoleTool {
			out = append(out, fmt.Sprintf("%s:%s", m.ToolCallID, m.Content))
		}
	}
	return out
}

// counter keeps the calls a tool saw, in order.
type counter struct {
	mu    sync.Mutex
	calls []string
}

func (c *counter) add(s string) {
	c.mu.Lock()
	c.calls = append(c.calls, s)
	c.mu.Unlock()
}

func (c *counter) list() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.calls...)
}

type approveIn struct {
	Action string `json:"action" jsonschema:"the action needing approval"`
}

// approvalTool pauses for an operator's approval.
func approvalTool(t testing.TB, c *counter) *tool.Tool {
	t.Helper()
	tl, err := tool.New("ask_approval", "Ask the operator to approve an action.",
		func(ctx context.Context, in approveIn) (string, error) {
			if c != nil {
				c.add("approve:" + in.Action)
			}
			return "", tool.Pause(map[string]any{"question": "Approve " + in.Action + "?"})
		})
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

type waitIn struct {
	Name string `json:"name" jsonschema:"what to fetch"`
}

// queueTool returns the given results in order, one per call.
func queueTool(t testing.TB, name string, results ...any) *tool.Tool {
	t.Helper()
	var mu sync.Mutex
	i := 0
	return tool.Must(tool.NewRaw(name, "Read backup runs.", json.RawMessage(`{"type":"object"}`),
		func(ctx context.Context, args json.RawMessage) (any, error) {
			mu.Lock()
			defer mu.Unlock()
			if i >= len(results) {
				return "no more scripted results", nil
			}
			i++
			return results[i-1], nil
		}))
}

func s1Absent(t testing.TB, p coverage.Period) coverage.Envelope {
	t.Helper()
	a, err := coverage.Absent(coverage.AbsenceDecl{What: "failed backup runs for host-103",
		Checked: []coverage.Item{{What: "every job in the 02:00 export"}}, Period: &p})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// ratioTool reports a service's health with a result that declares what it
// checked, so the armed layers have something to judge.
func ratioTool(b *testing.B) *tool.Tool {
	return tool.Must(tool.NewRaw("service_status", "Report a service's health.",
		json.RawMessage(`{"type":"object","properties":{"service":{"type":"string"}},"required":["service"]}`),
		func(context.Context, json.RawMessage) (any, error) {
			return json.RawMessage(`{"content":"checkout is degraded: error rate 12%","af_coverage":{"checked":["checkout"]}}`), nil
		}))
}

// cpuTime is this process's user+system CPU time: the per-core cost that load
// from other processes on the machine does not inflate.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
