package scripted_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
)

// A scripted model asks for one tool, then answers; a third call would fail.
func Example() {
	model := scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{{Name: "disk_usage", Args: json.RawMessage(`{"host":"db1"}`)}}},
		scripted.Reply{Content: "db1 is at 97% disk."},
	)
	ctx := context.Background()
	req := &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "Why is db1 slow?"}}}

	first, _ := model.Complete(ctx, req)
	fmt.Println(first.StopReason, first.ToolCalls[0].ID, first.ToolCalls[0].Name, string(first.ToolCalls[0].Args))
	second, _ := model.Complete(ctx, req)
	fmt.Println(second.StopReason, second.Content)
	_, err := model.Complete(ctx, req)
	fmt.Println(err)
	// Output:
	// tool_use call_1 disk_usage {"host":"db1"}
	// stop db1 is at 97% disk.
	// scripted: call 3 was made but only 2 replies were scripted; add a reply for it, or check maxIterations and the wrap-up call (a run makes up to maxIterations+1 model calls)
}

// Replies can come from JSON, for example inside a scenario file.
func ExampleParseReplies() {
	replies, err := scripted.ParseReplies([]byte(`[{"content": "hi", "usage": {"input": 5, "output": 1}}]`))
	if err != nil {
		fmt.Println(err)
		return
	}
	resp, _ := scripted.New(replies...).Complete(context.Background(), &llm.Request{})
	fmt.Println(resp.Content, resp.Usage.Input, resp.Usage.Output, resp.Usage.Reported)
	// Output: hi 5 1 true
}
