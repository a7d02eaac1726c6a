package anthropic_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/anthropic"
)

// A stream yields text as it arrives, then whole tool calls, usage, done.
func Example_stream() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"model\":\"claude-x\",\"usage\":{\"input_tokens\":20,\"output_tokens\":1}}}\n\n"+
			"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"+
			"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Checking \"}}\n\n"+
			"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"disk.\"}}\n\n"+
			"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"disk_usage\",\"input\":{}}}\n\n"+
			"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"host\\\":\\\"db1\\\"}\"}}\n\n"+
			"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"},\"usage\":{\"output_tokens\":15}}\n\n"+
			"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
	}))
	defer srv.Close()

	// Streaming is an optional interface of the provider New returns.
	model, ok := anthropic.New(anthropic.Options{BaseURL: srv.URL, APIKey: "example", Model: "claude-x"}).(llm.Streamer)
	if !ok {
		fmt.Println("this provider does not stream")
		return
	}
	req := &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "Why is db1 slow?"}}}
	for ev, err := range model.Stream(context.Background(), req) {
		if err != nil {
			fmt.Println(err)
			return
		}
		switch ev.Kind {
		case llm.EventText:
			fmt.Printf("text %q\n", ev.Text)
		case llm.EventToolCall:
			fmt.Println("call", ev.ToolCall.ID, ev.ToolCall.Name, string(ev.ToolCall.Args))
		case llm.EventUsage:
			fmt.Println("usage", ev.Usage.Input, ev.Usage.Output)
		case llm.EventDone:
			fmt.Println("done", ev.Response.StopReason)
		}
	}
	// Output:
	// text "Checking "
	// text "disk."
	// call toolu_1 disk_usage {"host":"db1"}
	// usage 20 15
	// done tool_use
}
