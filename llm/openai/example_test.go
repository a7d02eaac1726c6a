package openai_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/openai"
)

// Any OpenAI-compatible server works through BaseURL; here a local stub
// stands in for one. The exchange keeps the exact body, never the key.
func Example() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"id":"chatcmpl-1","model":"gpt-4o-mini","choices":[{"message":{"role":"assistant","content":null,
			"tool_calls":[{"id":"call_1","type":"function","function":{"name":"disk_usage","arguments":"{\"host\":\"db1\"}"}}]},
			"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":31,"completion_tokens":12}}`)
	}))
	defer srv.Close()

	model := openai.New(openai.Options{BaseURL: srv.URL + "/v1", APIKey: "sk-example", Model: "gpt-4o-mini"})
	resp, err := model.Complete(context.Background(), &llm.Request{
		Messages: []llm.Message{{Role: llm.RoleUser, Content: "Why is db1 slow?"}},
		Tools:    []llm.ToolSchema{{Name: "disk_usage", InputSchema: []byte(`{"type":"object"}`)}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	tc := resp.ToolCalls[0]
	fmt.Println(resp.StopReason, tc.ID, tc.Name, string(tc.Args), resp.Usage.Input, resp.Usage.Output)
	fmt.Println(string(resp.Exchange.RequestBody))
	fmt.Println(resp.Exchange.RequestHeader.Get("Authorization"))
	// Output:
	// tool_use call_1 disk_usage {"host":"db1"} 31 12
	// {"model":"gpt-4o-mini","messages":[{"role":"user","content":"Why is db1 slow?"}],"tools":[{"type":"function","function":{"name":"disk_usage","parameters":{"type":"object"}}}]}
	// [redacted]
}
