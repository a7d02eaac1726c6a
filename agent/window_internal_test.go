// Tests of the window bookkeeping rules: groups travel together, pins and
// the question are kept, odd strategy answers are tamed.

package agent

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/llm"
)

func TestApplyWindowRules(t *testing.T) {
	hist := []llm.Message{
		{Role: llm.RoleUser, Content: "first question"},                                                  // 0
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "a", Name: "t"}, {ID: "b", Name: "t"}}}, // 1
		{Role: llm.RoleTool, ToolCallID: "a", Content: "ra"},                                             // 2
		{Role: llm.RoleTool, ToolCallID: "b", Content: "rb"},                                             // 3
		{Role: llm.RoleAssistant, Content: "answer"},                                                     // 4
		{Role: llm.RoleUser, Content: "second question"},                                                 // 5
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c", Name: "t"}}},                       // 6
		{Role: llm.RoleTool, ToolCallID: "c", Content: "rc"},                                             // 7
	}
	ev := func(reason string, idx ...int) []state.Evicted {
		out := []state.Evicted{}
		for _, i := range idx {
			out = append(out, state.Evicted{Index: i, Reason: reason})
		}
		return out
	}
	tests := []struct {
		name   string
		asked  []state.Evicted
		pinned []int
		want   state.HistoryWindow
	}{
		{"nothing asked", nil, nil, state.HistoryWindow{Sent: []int{0, 1, 2, 3, 4, 5, 6, 7}, Evicted: []state.Evicted{}}},
		{"one tool result evicts its whole group", ev("window", 3), nil,
			state.HistoryWindow{Sent: []int{0, 4, 5, 6, 7}, Evicted: ev("window", 1, 2, 3)}},
		{"the call evicts its results", ev("budget", 1), nil,
			state.HistoryWindow{Sent: []int{0, 4, 5, 6, 7}, Evicted: ev("budget", 1, 2, 3)}},
		{"a pin keeps the whole group", ev("window", 0, 1, 2, 3, 4), []int{2},
			state.HistoryWindow{Sent: []int{1, 2, 3, 5, 6, 7}, Evicted: ev("window", 0, 4)}},
		{"the question and the last group are always sent", ev("window", 0, 1, 2, 3, 4, 5, 6, 7), nil,
			state.HistoryWindow{Sent: []int{5, 6, 7}, Evicted: ev("window", 0, 1, 2, 3, 4)}},
		{"odd answers: out of range, duplicate, unknown reason", []state.Evicted{{Index: -1}, {Index: 99}, {Index: 0, Reason: "policy"}, {Index: 0, Reason: "budget"}}, []int{42},
			state.HistoryWindow{Sent: []int{1, 2, 3, 4, 5, 6, 7}, Evicted: ev("window", 0)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := applyWindow(tc.asked, tc.pinned, hist)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestBuiltInWindows(t *testing.T) {
	hist := []llm.Message{
		{Role: llm.RoleUser, Content: "0123456789"},                                                     // 10
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "a", Name: "tt", Args: []byte(`{}`)}}}, // 4
		{Role: llm.RoleTool, ToolCallID: "a", Content: "abcd"},                                          // 4
		{Role: llm.RoleUser, Content: "xyz"},                                                            // 3
	}
	tests := []struct {
		name string
		w    windowStrategy
		want []state.Evicted
	}{
		{"last 1", lastMessages{n: 1}, []state.Evicted{{Index: 0, Reason: "window"}, {Index: 1, Reason: "window"}, {Index: 2, Reason: "window"}}},
		{"last 2 stops before the group of 2", lastMessages{n: 2}, []state.Evicted{{Index: 0, Reason: "window"}, {Index: 1, Reason: "window"}, {Index: 2, Reason: "window"}}},
		{"last 3 takes the group", lastMessages{n: 3}, []state.Evicted{{Index: 0, Reason: "window"}}},
		{"last 9", lastMessages{n: 9}, []state.Evicted{}},
		{"budget 10 stops before the group of 8", charBudget{max: 10}, []state.Evicted{{Index: 0, Reason: "budget"}, {Index: 1, Reason: "budget"}, {Index: 2, Reason: "budget"}}},
		{"budget 11", charBudget{max: 11}, []state.Evicted{{Index: 0, Reason: "budget"}}},
		{"budget 21", charBudget{max: 21}, []state.Evicted{}},
		{"budget 1 keeps the newest", charBudget{max: 1}, []state.Evicted{{Index: 0, Reason: "budget"}, {Index: 1, Reason: "budget"}, {Index: 2, Reason: "budget"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.w.Evict(1, hist)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
