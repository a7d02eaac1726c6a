package inputs_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/internal/honesty/inputs"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// A missing window is filled from the tool's assume rule, and the row says
// the value is the tool's default, not the person's.
func ExampleResolve() {
	type in struct {
		Service string `json:"service"`
		Window  string `json:"window"`
	}
	search := tool.Must(tool.New("search_logs", "Search logs.",
		func(context.Context, in) (string, error) { return "[]", nil },
		tool.WithAskOrAssume(map[string]tool.Rule{"window": {Assume: "2h"}})))
	b := inputs.Resolve([]inputs.Call{{ID: "c1", Name: "search_logs", Args: json.RawMessage(`{"service":"checkout"}`)}},
		func(string) (*tool.Tool, bool) { return search, true }, inputs.Stamp{Turn: 1, Iteration: 1})
	row, _ := json.Marshal(b.Rows[0])
	fmt.Println(string(row))
	args, _ := inputs.Apply(json.RawMessage(`{"service":"checkout"}`), b.Resolutions[0].Fills)
	fmt.Println(string(args))
	// Output:
	// {"kind":"argument","turn":1,"toolCallId":"c1","toolName":"search_logs","iteration":1,"argument":"window","rule":"assume","source":"default","value":"2h"}
	// {"service":"checkout","window":"2h"}
}
