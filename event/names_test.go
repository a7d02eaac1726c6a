package event

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestWireNames pins every name to its exact wire string.
func TestWireNames(t *testing.T) {
	want := []string{
		"agentfootprint.agent.turn_start", "agentfootprint.agent.turn_end", "agentfootprint.agent.iteration_start",
		"agentfootprint.agent.iteration_end", "agentfootprint.agent.route_decided", "agentfootprint.agent.budget_exhausted",
		"agentfootprint.agent.run_configured",
		"agentfootprint.llm.request", "agentfootprint.llm.response", "agentfootprint.llm.token",
		"agentfootprint.tools.start", "agentfootprint.tools.progress", "agentfootprint.tools.result",
		"agentfootprint.validation.args_invalid", "agentfootprint.tools.result_refused", "agentfootprint.tools.absent",
		"agentfootprint.tools.coverage_declared", "agentfootprint.tools.semantics_declared",
		"agentfootprint.findings.period", "agentfootprint.findings.argument",
		"agentfootprint.answer.assessed",
		"agentfootprint.pause.request", "agentfootprint.pause.resume", "agentfootprint.error.fatal",
		"agentfootprint.context.evaluated",
	}
	var got []string
	for _, n := range Names() {
		got = append(got, string(n))
		if !n.known() {
			t.Errorf("%s is listed but not known", n)
		}
		if CheckPattern(string(n)) != nil {
			t.Errorf("CheckPattern refuses %s", n)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("names (-want +got):\n%s", diff)
	}
}

func TestKnownAndPatterns(t *testing.T) {
	if Name("agentfootprint.tools.reslt").known() {
		t.Errorf("a misspelt name is known")
	}
	patterns := []struct {
		p  string
		ok bool
	}{
		{"*", true},
		{"agentfootprint.tools.*", true},
		{"agentfootprint.findings.*", true},
		{"agentfootprint.*", true},
		{string(PauseResume), true},
		{"agentfootprint.tool.*", false},
		{"tools.*", false},
		{"agentfootprint.tools.reslt", false},
		{"", false},
	}
	for _, p := range patterns {
		err := CheckPattern(p.p)
		if (err == nil) != p.ok {
			t.Errorf("CheckPattern(%q) = %v, want ok=%v", p.p, err, p.ok)
		}
		if err != nil && !errors.Is(err, ErrPattern) {
			t.Errorf("CheckPattern(%q) error does not wrap ErrPattern", p.p)
		}
	}
}

// TestPayloadKeysGolden pins the JSON keys (and their order) of every
// payload, with every optional key set and then with none.
func TestPayloadKeysGolden(t *testing.T) {
	one, zero := 1, 0
	yes := true
	temp := 0.2
	full := []any{
		TurnStart{TurnIndex: 0, TurnNumber: 2, MessageChars: 31},
		TurnEnd{FinalContent: "No errors.", TotalInputTokens: 120, TotalOutputTokens: 14, IterationCount: 2, DurationMs: 840,
			StoppedEarly:     &StoppedEarly{Reason: "max-iterations", Iteration: 3, PendingToolCalls: 1, WrappedUp: &yes},
			AnswerAssessment: map[string]any{"standing": "not-sure"}, AnswerCoverage: map[string]any{"assumed": []any{}}},
		IterationStart{IterIndex: 1},
		IterationEnd{IterIndex: 1, ToolCallCount: 2},
		RouteDecided{Chosen: "tool-calls", Label: "model asked for tools within the step budget"},
		BudgetExhausted{Reason: "max-iterations", Iteration: 3, Limit: 3, PendingToolCalls: 1, Action: ActionWrappedUp},
		LLMRequestPayload{Iteration: 1, Provider: "scripted", Model: "m", SystemPromptChars: 40, MessagesCount: 2, ToolsCount: 1,
			Tools: []ToolName{{Name: "search_logs"}}, RequestSha256: "ab12", RequestBytes: 512, Temperature: &temp},
		LLMResponsePayload{Iteration: 1, Content: "", ToolCallCount: 1, Usage: Usage{Input: 100, Output: 9, CacheRead: &one, CacheWrite: &zero, Reasoning: &one, Reported: true},
			StopReason: "tool_use", DurationMs: 12, ResponseSha256: "cd34", ResponseID: "msg_01", ResponseModel: "m-2026-01"},
		LLMTokenPayload{Iteration: 1, Content: "No"},
		ToolsStartPayload{ToolName: "search_logs", ToolCallID: "c1", Args: json.RawMessage(`{"service":"checkout"}`), ParallelCount: 2},
		ToolsProgressPayload{ToolCallID: "c1", ToolName: "search_logs", Iteration: 1, Payload: map[string]any{"pct": 50}},
		ToolsResultPayload{ToolCallID: "c1", Result: "[]", Error: true, DurationMs: 3, Status: "invalid"},
		ArgsInvalid{ToolName: "search_logs", ToolCallID: "c1", Iteration: 1, Issues: []IssueBrief{{Path: "/window", Keyword: "enum"}}, Enforced: true},
		ResultRefused{ToolName: "search_logs", ToolCallID: "c1", Iteration: 1, SizeChars: 52000, MaxChars: 8000, NarrowBy: "a shorter window", DeclaredStatus: "success"},
		SemanticsDeclared{ToolName: "search_logs", ToolCallID: "c1", Iteration: 1, Semantics: map[string]any{"af_semantics": true}},
		FindingsPeriodPayload{ToolCallID: "c1", ToolName: "search_logs", Iteration: 1, Turn: 1, Verdict: "not-held", TimeChecks: []string{"period-shifted"}},
		FindingsArgumentPayload{ToolCallID: "c1", ToolName: "search_logs", Iteration: 1, Turn: 1, Argument: "window", Rule: "assume",
			Period: true, Source: "default", Asked: "missing", Proposed: true, Free: true, Hidden: true, ValueChars: &one},
		AnswerAssessedPayload{Assessment: "a", Standing: "not-sure", Reasons: []string{"argument-assumed"}, Checked: []Check{{Layer: 2, Check: "argument-rules", Ran: 1, Of: 1}}, Turn: 1, Iteration: 2},
		PauseRequestPayload{Reason: "arguments", ToolCallID: "c1", ToolName: "search_logs"},
		PauseResumePayload{PausedDurationMs: 5000},
		ErrorFatalPayload{Error: "boom", Stage: StageObserver, Scope: "agentfootprint.tools.result"},
		ContextEvaluatedPayload{Iteration: 1, Active: []ActiveUnit{{ID: "fact/1", Trigger: "always"}}, InactiveCount: 2, Dropped: []DroppedUnit{{ID: "msg/3", Reason: "window"}}},
	}
	empty := []any{TurnEnd{}, LLMRequestPayload{}, LLMResponsePayload{}, ToolsStartPayload{}, ToolsResultPayload{},
		ResultRefused{}, FindingsPeriodPayload{}, FindingsArgumentPayload{}, Meta{}, ArgsInvalid{}, AnswerAssessedPayload{}, ContextEvaluatedPayload{},
		Event{Type: AgentTurnStart}}
	var buf bytes.Buffer
	for _, group := range [][]any{full, empty} {
		for _, p := range group {
			b, err := json.Marshal(p)
			if err != nil {
				t.Fatalf("%T: %v", p, err)
			}
			buf.WriteString(typeName(p))
			buf.WriteString(" ")
			buf.Write(b)
			buf.WriteByte('\n')
		}
	}
	path := filepath.Join("testdata", "payloads.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden (run with -update to create): %v", err)
	}
	if diff := cmp.Diff(string(want), buf.String()); diff != "" {
		t.Fatalf("payload JSON (-want +got):\n%s", diff)
	}
}

func typeName(v any) string { return fmt.Sprintf("%T", v) }
