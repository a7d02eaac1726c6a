// This file builds the scripted run the audit tests export: one agent turn of several
// iterations whose events carry prompts, tool arguments, results and an answer.

package audit

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/agentfootprint/agentfootprint-go/store"
)

var fixedStart = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// fixedNow pins header.exportedAt for goldens.
func fixedNow() time.Time { return time.Date(2026, 11, 29, 12, 30, 0, 0, time.UTC) }

// scriptedRun returns a stored run with iterations loops of llm.request, llm.response,
// tools.start and tools.result, framed by turn_start and turn_end: 2 + 5*iterations events.
func scriptedRun(id string, iterations int) *store.Run {
	ms := fixedStart.UnixMilli()
	var events []map[string]any
	emit := func(typ, stage string, payload map[string]any) {
		ms += 7
		events = append(events, map[string]any{
			"type": typ, "payload": payload,
			"meta": map[string]any{"runId": id, "runtimeStageId": stage, "wallClockMs": ms, "runOffsetMs": 7 * len(events), "sessionId": "private-session"},
		})
	}
	emit("agentfootprint.agent.turn_start", "seed#0", map[string]any{"turnIndex": 0, "message": "Please refund order 7, I am a VIP"})
	for i := 1; i <= iterations; i++ {
		emit("agentfootprint.context.evaluated", fmt.Sprintf("context#%d", 4*i-3), map[string]any{
			"iteration": i, "active": []any{map[string]any{"id": "vip-override", "trigger": "always"}}, "inactiveCount": 1, "dropped": []any{},
		})
		emit("agentfootprint.llm.request", fmt.Sprintf("call-llm#%d", 4*i-2), map[string]any{
			"iteration": i, "provider": "scripted", "model": "scripted-1", "systemPromptChars": 412, "messagesCount": 2*i - 1,
			"toolsCount": 1, "tools": []any{map[string]any{"name": "lookup_order"}},
			"requestSha256": fmt.Sprintf("%064x", i), "requestBytes": 1800 + i, "temperature": 0.2,
		})
		emit("agentfootprint.llm.response", fmt.Sprintf("call-llm#%d", 4*i-2), map[string]any{
			"iteration": i, "content": "Let me look up the order <b>now</b> — " + strings.Repeat("é", i),
			"toolCallCount": 1, "usage": map[string]any{"input": 300, "output": 20, "reported": true}, "stopReason": "tool_use", "durationMs": 12.5,
		})
		emit("agentfootprint.tools.start", fmt.Sprintf("tool-calls#%d", 4*i), map[string]any{
			"toolName": "lookup_order", "toolCallId": fmt.Sprintf("call_%d", i), "args": map[string]any{"orderId": "7", "includeHistory": true},
		})
		emit("agentfootprint.tools.result", fmt.Sprintf("tool-calls#%d", 4*i), map[string]any{
			"toolCallId": fmt.Sprintf("call_%d", i), "result": map[string]any{"status": "shipped", "amount": 42},
			"durationMs": 3, "status": "ok", "ledgerId": 12345678901234567890.0,
		})
	}
	emit("agentfootprint.agent.turn_end", "prepare-final#99", map[string]any{
		"turnIndex": 0, "finalContent": "APPROVED: refund of 42 € issued", "totalInputTokens": 300 * iterations,
		"totalOutputTokens": 20 * iterations, "iterationCount": iterations, "durationMs": 140,
	})
	evJSON, _ := json.Marshal(events)
	return &store.Run{
		RunInfo: store.RunInfo{ID: id, AgentID: "refunds", StartedAt: fixedStart, EndedAt: fixedStart.Add(time.Second),
			Status: store.StatusComplete, Answer: "APPROVED: refund of 42 € issued"},
		Record: json.RawMessage(`{"format":"agentfootprint-go.record/1","manifest":{"runId":"` + id + `"}}`),
		Events: evJSON,
	}
}
