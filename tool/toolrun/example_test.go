// Examples of the dispatcher's side: validating arguments, and checking a
// person's answer for one argument.

package toolrun_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/tool"
	"github.com/agentfootprint/agentfootprint-go/tool/toolrun"
)

type searchIn struct {
	Service string `json:"service" jsonschema:"the service whose logs to search, such as checkout"`
	Window  string `json:"window,omitempty" jsonschema:"how far back to look, such as 2h"`
}

func searchLogs(ctx context.Context, in searchIn) ([]string, error) {
	return []string{in.Service + ": 3 errors in the last " + in.Window}, nil
}

// The dispatcher validates before it executes; every issue goes back to the
// model in one result.
func ExampleValidate() {
	search := tool.Must(tool.New("search_logs", "Search a service's error logs.", searchLogs))
	rej := toolrun.Validate(search.Declaration(), json.RawMessage(`{"window":2,"verbose":true}`), "")
	for _, is := range rej.Issues {
		fmt.Printf("%s %s expected=%s got=%s\n", is.Path, is.Keyword, is.Expected, is.Got)
	}
	fmt.Println(rej.Text())
	// Output:
	// /service required expected=string got=missing
	// /verbose additionalProperties expected=no such property got=boolean
	// /window type expected=string got=integer
	// The search_logs tool was not run: its arguments do not match its input schema (3 issues). Correct all of them and call it again.
	// - /service: required expects string, got missing
	// - /verbose: additionalProperties expects no such property, got boolean
	// - /window: type expects string, got integer
}

// A person's answer is checked against the argument's own schema before it
// is filled in.
func ExampleCheckArgument() {
	search := tool.Must(tool.NewRaw("search_logs", "Search logs.",
		json.RawMessage(`{"type":"object","properties":{"limit":{"type":"integer","minimum":1}}}`),
		func(ctx context.Context, args json.RawMessage) (any, error) { return "[]", nil }))
	fmt.Println(toolrun.CheckArgument(search.Declaration(), "limit", 20) == nil)
	for _, is := range toolrun.CheckArgument(search.Declaration(), "limit", 2.5).Issues {
		fmt.Println(is.Path, is.Keyword, is.Expected, is.Got)
	}
	// Output:
	// true
	// /limit type integer number
}

// A tool's own test runs it the way an agent does: validate, then execute,
// with a call attached so tool.CallFrom finds it.
func ExampleInvoke() {
	search := tool.Must(tool.New("search_logs", "Search a service's error logs.", searchLogs))
	ctx := toolrun.WithCall(context.Background(), tool.Call{ID: "c1", Name: "search_logs", Iteration: 1, Turn: 1})

	o := toolrun.Invoke(ctx, search.Declaration(), json.RawMessage(`{"service":"checkout","window":"2h"}`), "")
	text, _ := toolrun.Text(o.Output.Value)
	fmt.Println(o.Ran, text)

	o = toolrun.Invoke(ctx, search.Declaration(), json.RawMessage(`{"window":"2h"}`), "")
	fmt.Println(o.Ran, o.Rejection.Stops(search.Declaration().Validation), o.Rejection.Issues[0].Path)
	// Output:
	// true ["checkout: 3 errors in the last 2h"]
	// false true /service
}
