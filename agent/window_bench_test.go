// Benchmark of the per-iteration window cost over a long history.

package agent

import (
	"strconv"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/llm"
)

// BenchmarkHistoryWindow measures choosing and recording the window of a
// 200-message history (50 tool groups of three messages plus user turns),
// as the context stage does each iteration.
func BenchmarkHistoryWindow(b *testing.B) {
	var hist []llm.Message
	for i := 0; len(hist) < 200; i++ {
		id := strconv.Itoa(i)
		hist = append(hist,
			llm.Message{Role: llm.RoleUser, Content: "question " + id},
			llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "a" + id, Name: "t", Args: []byte(`{"q":1}`)}, {ID: "b" + id, Name: "t", Args: []byte(`{}`)}}},
			llm.Message{Role: llm.RoleTool, ToolCallID: "a" + id, Content: "result a"},
			llm.Message{Role: llm.RoleTool, ToolCallID: "b" + id, Content: "result b"})
	}
	for _, tc := range []struct {
		name string
		w    windowStrategy
	}{{"last20", lastMessages{n: 20}}, {"budget2000", charBudget{max: 2000}}} {
		a := &Agent{cfg: config{window: windowConfig{strategy: tc.w, pinned: []int{3}}}}
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				a.historyWindow(5, hist, nil)
			}
		})
	}
}
