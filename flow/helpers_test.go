// Test helpers: an agent-shaped chart and small accessors over records.

package flow_test

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files")

// msg is a list element with struct shape, like a chat message.
type msg struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

var (
	kIter    = flow.Key[int]("iteration")
	kMax     = flow.Key[int]("maxIterations")
	kUser    = flow.Key[string]("userMessage")
	kHistory = flow.List[msg]("history")
	kCalls   = flow.Key[[]string]("toolCalls")
	kFinal   = flow.Key[string]("finalContent")
	kMeta    = flow.Key[map[string]any]("meta")
)

// toolStage is a pausable tool stage: when pauseOn is the current iteration
// it pauses; Resume appends the input as the tool result.
type toolStage struct{ pauseOn int }

func (t toolStage) pausable() flow.Pausable {
	return flow.Pausable{Execute: t.Execute, Resume: t.Resume}
}

func (t toolStage) Execute(ctx context.Context, s *flow.Scope) (*flow.Pause, error) {
	n, _ := kIter.Get(s)
	if n == t.pauseOn {
		return &flow.Pause{Data: map[string]any{"question": "approve?", "iteration": n}}, nil
	}
	kHistory.Append(s, msg{Role: "tool", Content: "result"})
	kIter.Set(s, n+1)
	return nil, nil
}

func (t toolStage) Resume(ctx context.Context, s *flow.Scope, input json.RawMessage) error {
	var answer string
	if err := json.Unmarshal(input, &answer); err != nil {
		return err
	}
	n, _ := kIter.Get(s)
	kHistory.Append(s, msg{Role: "tool", Content: answer})
	kIter.Set(s, n+1)
	return nil
}

// agentChart mimics the agent: seed → call-llm → sf-route → tool-calls
// (LoopTo call-llm) | prepare-final → break-final. The model asks for tools
// until iteration reaches toolRounds+1.
func agentChart(t testing.TB, toolRounds, pauseOn int) *flow.Chart {
	t.Helper()
	c, err := flow.NewBuilder("agent").
		Keys(kIter, kMax, kUser, kHistory, kCalls, kFinal, kMeta).
		Stage("seed", func(ctx context.Context, s *flow.Scope) (any, error) {
			u, _ := s.Get("userMessage")
			kHistory.Set(s, []msg{{Role: "user", Content: u.(string)}})
			kIter.Set(s, 1)
			kFinal.Set(s, "")
			return nil, nil
		}, flow.Name("Seed")).
		Stage("call-llm", func(ctx context.Context, s *flow.Scope) (any, error) {
			n, _ := kIter.Get(s)
			if n <= toolRounds {
				kCalls.Set(s, []string{"lookup"})
				kHistory.Append(s, msg{Role: "assistant", Content: "calling lookup"})
			} else {
				kCalls.Set(s, nil)
				kHistory.Append(s, msg{Role: "assistant", Content: "done"})
			}
			return nil, nil
		}, flow.Name("Call LLM")).
		Decider("sf-route", func(ctx context.Context, s *flow.Scope) (*flow.Decision, error) {
			return flow.Decide(s, []flow.Rule{{
				Label:  "model asked for tools within the step budget",
				Branch: "tool-calls",
				When: func(r flow.Reader) bool {
					calls, _ := kCalls.Get(r)
					n, _ := kIter.Get(r)
					m, _ := kMax.Get(r)
					return len(calls) > 0 && n < m
				},
			}}, "final"), nil
		},
			flow.Branch("tool-calls").Pausable("tool-calls", toolStage{pauseOn: pauseOn}.pausable()).LoopTo("call-llm"),
			flow.Branch("final").
				Stage("prepare-final", func(ctx context.Context, s *flow.Scope) (any, error) {
					h := kHistory.Get(s)
					kFinal.Set(s, h[len(h)-1].Content)
					return nil, nil
				}).
				Stage("break-final", func(ctx context.Context, s *flow.Scope) (any, error) {
					f, _ := kFinal.Get(s)
					s.Break("final")
					return f, nil
				}),
		).Build()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func runAgent(t testing.TB, c *flow.Chart, opts ...flow.RunOption) *flow.Result {
	t.Helper()
	opts = append([]flow.RunOption{flow.WithRunID("run-1")}, opts...)
	res, err := c.Run(context.Background(), map[string]any{"userMessage": "hi", "maxIterations": 5}, opts...)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return res
}

func runtimeIDs(rec *flow.Record) []string {
	ids := make([]string, len(rec.Commits))
	for i, c := range rec.Commits {
		ids[i] = c.RuntimeStageID
	}
	return ids
}

// golden compares got with testdata/name, rewriting it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden (run with -update to create): %v", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", name, diff)
	}
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

type ctxT = context.Context

func bg() context.Context { return context.Background() }

// decodeCheckpoint decodes checkpoint JSON the way a user does, with
// encoding/json; Chart.Resume validates what it gets.
func decodeCheckpoint(data []byte) (*flow.Checkpoint, error) {
	var cp flow.Checkpoint
	if err := json.Unmarshal(data, &cp); err != nil {
		return nil, err
	}
	return &cp, nil
}
