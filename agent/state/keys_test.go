// Tests that pin the shared keys' wire names and Go types, and the JSON of the value types the
// record stores.

package state

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/flow"
)

func TestKeyNamesAndTypes(t *testing.T) {
	c := flow.NewBuilder("keys").
		Keys(KeyUserMessage, KeyTurnNumber, KeyHistory, KeyIteration,
			KeyCatalog, KeyContextUnits, KeyLLMRequest, KeyLatestContent, KeyLatestToolCalls,
			KeyToolResults, KeyCoverageDeclared, KeyFindingsLedger, KeyArgumentAsk, KeyFinalContent).
		Stage("only", func(context.Context, *flow.Scope) (any, error) { return nil, nil }).
		MustBuild()
	got := c.Structure().Keys
	want := []flow.StructureKey{
		{Name: "userMessage", Type: "string"},
		{Name: "turnNumber", Type: "int"},
		{Name: "history", Type: "[]llm.Message", List: true},
		{Name: "iteration", Type: "int"},
		{Name: "contextCatalog", Type: "[]inject.CatalogEntry"},
		{Name: "contextUnits", Type: "state.ContextUnits"},
		{Name: "llmRequest", Type: "state.LLMRequest"},
		{Name: "llmLatestContent", Type: "string"},
		{Name: "llmLatestToolCalls", Type: "[]llm.ToolCall"},
		{Name: "toolResults", Type: "[]state.ToolResult"},
		{Name: "coverageDeclared", Type: "[]coverage.DeclaredCoverage", List: true},
		{Name: "findingsLedger", Type: "[]ledger.Row", List: true},
		{Name: "argumentAsk", Type: "state.ArgumentAsk"},
		{Name: "finalContent", Type: "string"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("declared keys (-want +got):\n%s", diff)
	}
}

func TestToolResultJSON(t *testing.T) {
	tests := []struct {
		in   ToolResult
		want string
	}{
		{ToolResult{ToolCallID: "c1", ToolName: "search_logs", Iteration: 2, Status: "absent", OutputRef: "sha256:ab", ServedChars: 12},
			`{"toolCallId":"c1","toolName":"search_logs","iteration":2,"status":"absent","outputRef":"sha256:ab","servedChars":12}`},
		{ToolResult{ToolCallID: "c2", ToolName: "t", Iteration: 1, Error: true},
			`{"toolCallId":"c2","toolName":"t","iteration":1,"error":true,"servedChars":0}`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tt.want {
			t.Errorf("ToolResult JSON\n got %s\nwant %s", b, tt.want)
		}
		var back ToolResult
		if err := json.Unmarshal(b, &back); err != nil || back != tt.in {
			t.Errorf("ToolResult did not decode back: %+v, %v", back, err)
		}
	}
}
