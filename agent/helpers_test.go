// Test helpers: tools, scripted calls and record readers shared by the tests.

package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/internal/agenttest"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// The fixtures shared with agent/compose's tests live in package agenttest.
type counter = agenttest.Counter

var (
	call         = agenttest.Call
	approvalTool = agenttest.ApprovalTool
	mustJSON     = agenttest.MustJSON
	toolMessages = agenttest.ToolMessages
)

type statusIn struct {
	Service string `json:"service" jsonschema:"the service to check"`
}

func statusTool(t testing.TB, c *counter) *tool.Tool {
	t.Helper()
	tl, err := tool.New("service_status", "Report a service's health.",
		func(ctx context.Context, in statusIn) (string, error) {
			if c != nil {
				c.Add("status:" + in.Service)
			}
			switch in.Service {
			case "boom":
				panic("status backend exploded")
			case "fail":
				return "", errors.New("backend unreachable")
			}
			return in.Service + " is degraded: error rate 12%", nil
		})
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

func stageIDs(r *record.Record) []string {
	var out []string
	for _, c := range r.Log.Commits {
		out = append(out, c.RuntimeStageID)
	}
	return out
}

// eventLog records event types (and selected payload facts) in order.
type eventLog struct {
	mu  sync.Mutex
	evs []event.Event
}

func (l *eventLog) on(a *agent.Agent) {
	a.On("*", func(e event.Event) {
		l.mu.Lock()
		l.evs = append(l.evs, e)
		l.mu.Unlock()
	})
}

func (l *eventLog) types() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, e := range l.evs {
		out = append(out, strings.TrimPrefix(string(e.Type), event.Prefix))
	}
	return out
}

func (l *eventLog) of(n event.Name) []event.Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []event.Event
	for _, e := range l.evs {
		if e.Type == n {
			out = append(out, e)
		}
	}
	return out
}

// loadCheckpoint loads a hand-built conversation checkpoint on a, the way a
// program restores one it stored: encoded as JSON, then LoadConversation.
func loadCheckpoint(t testing.TB, a *agent.Agent, cp convCheckpoint) *agent.Conversation {
	t.Helper()
	b, err := json.Marshal(cp)
	if err != nil {
		t.Fatal(err)
	}
	conv, err := a.LoadConversation(b)
	if err != nil {
		t.Fatalf("LoadConversation: %v\n%s", err, b)
	}
	return conv
}

// reload saves conv with Checkpoint and loads the bytes on a (the same
// agent, or a fresh one built the same way: another process, in practice).
func reload(t testing.TB, a *agent.Agent, conv *agent.Conversation) *agent.Conversation {
	t.Helper()
	b, err := conv.Checkpoint()
	if err != nil {
		t.Fatal(err)
	}
	back, err := a.LoadConversation(b)
	if err != nil {
		t.Fatalf("LoadConversation: %v\n%s", err, b)
	}
	return back
}

// checkpointOf decodes conv's checkpoint, for tests that read or tamper its
// fields.
func checkpointOf(t testing.TB, conv *agent.Conversation) convCheckpoint {
	t.Helper()
	b, err := conv.Checkpoint()
	if err != nil {
		t.Fatal(err)
	}
	var cp convCheckpoint
	if err := json.Unmarshal(b, &cp); err != nil {
		t.Fatal(err)
	}
	return cp
}

// convCheckpoint mirrors the conversation checkpoint's JSON (format version
// 1, as Conversation.Checkpoint writes it and LoadConversation reads it), for
// tests that build, read or tamper one as a program holding the bytes would.
type convCheckpoint struct {
	Version                int           `json:"version"`
	RunID                  string        `json:"runId"`
	History                []llm.Message `json:"history"`
	LastCompletedIteration int           `json:"lastCompletedIteration"`
	OriginalInput          struct {
		Message string `json:"message"`
	} `json:"originalInput"`
	CheckpointedAt string          `json:"checkpointedAt"`
	Identity       json.RawMessage `json:"identity,omitempty"`
	Agent          *struct {
		ID string `json:"id"`
	} `json:"agent,omitempty"`
	FailurePoint *struct {
		Iteration int    `json:"iteration"`
		Phase     string `json:"phase"`
		Stage     string `json:"stage,omitempty"`
	} `json:"failurePoint,omitempty"`
	FindingsLedger json.RawMessage `json:"findingsLedger,omitempty"`
	Pause          json.RawMessage `json:"pause,omitempty"`
}

// decodeCheckpoint decodes checkpoint bytes (Conversation.Checkpoint's, or a
// RunCheckpointError's) for a test to read.
func decodeCheckpoint(t testing.TB, b []byte) convCheckpoint {
	t.Helper()
	var cp convCheckpoint
	if err := json.Unmarshal(b, &cp); err != nil {
		t.Fatalf("checkpoint: %v\n%s", err, b)
	}
	return cp
}
