// Runnable example: a run's record written as JSON and read back with
// typed values.

package record_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
)

// The record encodes to one JSON document and decodes back with typed
// values, so any key can be replayed as of any commit.
func ExampleDecode() {
	a, _ := agent.New(scripted.New(scripted.Reply{Content: "All green."}))
	res, _ := a.Run(context.Background(), agent.Input{Message: "Status?"})
	data, _ := json.Marshal(res.Record)

	rec, err := record.Decode(data)
	if err != nil {
		panic(err)
	}
	i, _ := rec.Log.Find("prepare-final#4")
	v, _, _ := flow.ValueAt(rec.Log, i, "finalContent")
	lr, _, _ := flow.ValueAt(rec.Log, i, "llmRequest")
	body, _ := rec.Blob(lr.(state.LLMRequest).Request.Blob)
	fmt.Println(v, rec.Manifest.Complete, len(body) == lr.(state.LLMRequest).Request.Bytes)
	// Output:
	// All green. true true
}
