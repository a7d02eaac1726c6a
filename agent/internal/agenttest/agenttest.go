// Package agenttest holds the fixtures the tests of package agent and of
// agent/compose share: a call counter, a tool that pauses for approval, a
// tool whose result declares what it checked, scripted tool calls, a record
// round trip, and the process CPU clock the side-by-side benchmarks read.
// Only tests import it.
package agenttest

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// Counter keeps the calls tools saw, in order. It is safe for concurrent use.
type Counter struct {
	mu    sync.Mutex
	calls []string
}

// Add notes one call.
func (c *Counter) Add(s string) {
	c.mu.Lock()
	c.calls = append(c.calls, s)
	c.mu.Unlock()
}

// List returns a copy of the calls noted so far.
func (c *Counter) List() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.calls...)
}

type approveIn struct {
	Action string `json:"action" jsonschema:"the action needing approval"`
}

// ApprovalTool is ask_approval: it notes "approve:<action>" on c (when not
// nil) and pauses the turn with the question for an operator.
func ApprovalTool(t testing.TB, c *Counter) *tool.Tool {
	t.Helper()
	tl, err := tool.New("ask_approval", "Ask the operator to approve an action.",
		func(ctx context.Context, in approveIn) (string, error) {
			if c != nil {
				c.Add("approve:" + in.Action)
			}
			return "", tool.Pause(map[string]any{"question": "Approve " + in.Action + "?"})
		})
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

// RatioTool is service_status with a result that declares what it checked,
// so the armed layers of a benchmark have something to judge.
func RatioTool() *tool.Tool {
	return tool.Must(tool.NewRaw("service_status", "Report a service's health.",
		json.RawMessage(`{"type":"object","properties":{"service":{"type":"string"}},"required":["service"]}`),
		func(context.Context, json.RawMessage) (any, error) {
			return json.RawMessage(`{"content":"checkout is degraded: error rate 12%","af_coverage":{"checked":["checkout"]}}`), nil
		}))
}

// Call is a model's tool call with args parsed as a provider would.
func Call(id, name, args string) llm.ToolCall {
	a, aerr := llm.ParseArgs([]byte(args))
	return llm.ToolCall{ID: id, Name: name, Args: a, ArgsError: aerr}
}

// MustJSON is v encoded as JSON text; a value that does not encode fails t.
func MustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// ToolMessages lists the tool messages of h as "callID:content".
func ToolMessages(h []llm.Message) []string {
	var out []string
	for _, m := range h {
		if m.Role == llm.RoleTool {
			out = append(out, fmt.Sprintf("%s:%s", m.ToolCallID, m.Content))
		}
	}
	return out
}

// CPUTime is this process's user plus system CPU time: the per-core cost
// that load from other processes on the machine does not inflate.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// RoundTrip encodes rec as JSON and decodes it again with record.Decode,
// failing t on either error. It returns the decoded record and the bytes.
func RoundTrip(t testing.TB, rec *record.Record) (*record.Record, []byte) {
	t.Helper()
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	back, err := record.Decode(b)
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	return back, b
}
