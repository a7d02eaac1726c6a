// Test helpers of the composition tests: small tools and agents. What the
// agent package's tests use too comes from agent/internal/agenttest.

package compose_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/internal/agenttest"
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// The fixtures shared with package agent's tests live in package agenttest.
type counter = agenttest.Counter

var (
	call         = agenttest.Call
	approvalTool = agenttest.ApprovalTool
	mustJSON     = agenttest.MustJSON
	toolMessages = agenttest.ToolMessages
	cpuTime      = agenttest.CPUTime
)

var (
	rlQ     = coverage.Span{From: "2026-09-26T09:00:00Z", To: "2026-09-26T10:00:00Z"}
	rlStale = coverage.Period{Queried: rlQ, Held: coverage.Held{Span: coverage.Span{From: "2026-08-27T02:00:00Z", To: "2026-09-26T02:00:00Z"}}}
)

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
