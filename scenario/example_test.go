// Runnable examples: run a scenario and check it; a refused file.

package scenario_test

import (
	"context"
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/scenario"
)

// Run a scenario file and check its expectations, as a test of your own would.
func ExampleRunFile() {
	rep, err := scenario.RunFile(context.Background(), "examples/ops-triage.json")
	if err != nil {
		panic(err)
	}
	for _, c := range rep.ToolCalls {
		fmt.Println("called", c.Name, string(c.Args))
	}
	fmt.Println("mismatches:", len(rep.Check()))
	// Output:
	// called service_status {"service":"checkout"}
	// called recent_deploys {"service":"checkout","lookback":"2h"}
	// called search_logs {"service":"checkout","query":"error","lookback":"1h"}
	// mismatches: 0
}

// A scenario written in Go: the model calls a tool once and answers; the expectation on the
// answer does not hold, and Check says where.
func ExampleRun() {
	f, err := scenario.Parse([]byte(`{
	  "tools": [{"name": "disk_usage", "results": [{"value": "db-1: 91% used"}]}],
	  "replies": [
	    {"toolCalls": [{"name": "disk_usage", "args": {"host": "db-1"}}]},
	    {"content": "db-1 is 91% full."}
	  ],
	  "turns": [{"user": "Is db-1 running out of disk?"}],
	  "expect": {"toolCalls": ["disk_usage"], "answerContains": ["95%"]}
	}`))
	if err != nil {
		panic(err)
	}
	rep, err := scenario.Run(context.Background(), f)
	if err != nil {
		panic(err)
	}
	fmt.Println(rep.ToolMessages[0].Content)
	fmt.Println(rep.Answer)
	for _, m := range rep.Check() {
		fmt.Println(m)
	}
	// Output:
	// db-1: 91% used
	// db-1 is 91% full.
	// expect.answerContains[0]: the answer does not contain "95%"
}

// A malformed file is refused with the path of the field at fault.
func ExampleParse() {
	_, err := scenario.Parse([]byte(`{
	  "tools": [{"name": "search_logs", "results": [{"value": [], "status": "sucess"}]}],
	  "replies": [],
	  "turns": [{"user": "Any errors?"}]
	}`))
	fmt.Println(err)
	// Output:
	// scenario: tools[0].results[0].status: unknown status "sucess" (did you mean "success"?); use one of success, failure, denied, invalid, partial, pending, absent
}
