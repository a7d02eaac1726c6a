// Examples for a tool author: defining typed and raw tools, results,
// declarations and the call context. A tool's own test runs it the way an
// agent does, through package tool/toolrun.

package tool_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/tool"
	"github.com/agentfootprint/agentfootprint-go/tool/toolrun"
)

type SearchIn struct {
	Service string `json:"service" jsonschema:"the service whose logs to search, such as checkout"`
	Window  string `json:"window,omitempty" jsonschema:"how far back to look, such as 2h"`
}

func searchLogs(ctx context.Context, in SearchIn) ([]string, error) {
	return []string{in.Service + ": 3 errors in the last " + in.Window}, nil
}

// A typed tool: the schema comes from the input type.
func ExampleNew() {
	search, err := tool.New("search_logs", "Search a service's error logs.", searchLogs)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(search.Name())
	fmt.Println(string(search.Declaration().InputSchema))
	// Output:
	// search_logs
	// {"type":"object","properties":{"service":{"type":"string","description":"the service whose logs to search, such as checkout"},"window":{"type":"string","description":"how far back to look, such as 2h"}},"required":["service"],"additionalProperties":false}
}

// A raw tool: the schema is given as is, and the func may answer with a
// result object carrying a status.
func ExampleNewRaw() {
	schema := json.RawMessage(`{"type":"object","properties":{"host":{"type":"string"}},"required":["host"]}`)
	ping := tool.Must(tool.NewRaw("ping", "Check that a host answers.", schema,
		func(ctx context.Context, args json.RawMessage) (any, error) {
			return map[string]any{"content": "no answer", "status": "failure"}, nil
		}))
	out, err := toolrun.Execute(context.Background(), ping.Declaration(), json.RawMessage(`{"host":"db-1"}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	text, _ := toolrun.Text(out.Value)
	fmt.Println(text, out.Status)
	// Output: no answer failure
}

// Definition errors name the tool, the field and the fix.
func ExampleDefinitionError() {
	_, err := tool.New("search logs", "Search.", searchLogs)
	var de *tool.DefinitionError
	if errors.As(err, &de) {
		fmt.Println(de.Path)
		fmt.Println(err)
	}
	// Output:
	// name
	// tool "search logs": name: the name must be 1 to 64 letters, digits, '_' or '-' (fix: rename the tool, for example "search_logs")
}

// A Result states a status next to the content.
func ExampleResult() {
	lookup := tool.Must(tool.New("find_user", "Find a user by email.",
		func(ctx context.Context, in struct {
			Email string `json:"email"`
		}) (tool.Result, error) {
			return tool.Result{Content: "no user with that email", Status: tool.StatusAbsent}, nil
		}))
	out, _ := toolrun.Execute(context.Background(), lookup.Declaration(), json.RawMessage(`{"email":"a@b.c"}`))
	text, _ := toolrun.Text(out.Value)
	fmt.Println(out.Status, "|", text)
	// Output: absent | no user with that email
}

// Declarations: a default for a missing window, and which argument sets the
// time window.
func ExampleWithPeriod() {
	search, err := tool.New("search_logs", "Search a service's error logs.", searchLogs,
		tool.WithAskOrAssume(map[string]tool.Rule{"window": {Assume: "2h"}}),
		tool.WithPeriod(tool.Period{Argument: "window", Spelling: tool.SpellingLookback}),
	)
	if err != nil {
		fmt.Println(err)
		return
	}
	d := search.Declaration()
	fmt.Println(d.AskOrAssume["window"].Assume, d.Period.Argument, d.Period.Spelling)

	_, err = tool.New("search_logs", "Search a service's error logs.", searchLogs,
		tool.WithAskOrAssume(map[string]tool.Rule{"window": {Assume: "2 hours"}}),
		tool.WithPeriod(tool.Period{Argument: "window", Spelling: tool.SpellingLookback}),
	)
	var de *tool.DefinitionError
	errors.As(err, &de)
	fmt.Println(de.Path)
	// Output:
	// 2h window lookback
	// period.spelling
}

// A ceiling refuses an oversized result whole.
func ExampleWithResultCeiling() {
	dump := tool.Must(tool.New("dump_table", "Dump a table.",
		func(ctx context.Context, in struct{}) (string, error) { return "0123456789abcdef", nil },
		tool.WithResultCeiling(10, "a row range")))
	out, _ := toolrun.Execute(context.Background(), dump.Declaration(), nil)
	text, _ := toolrun.Text(out.Value)
	refusal, size, over := toolrun.CheckCeiling(dump.Declaration(), text)
	fmt.Println(size, over)
	fmt.Println(refusal)
	// Output:
	// 16 true
	// No data was returned: the dump_table result was 16 characters, over the tool's limit of 10 characters, so it was withheld rather than cut. Call it again asking for less, narrowing by a row range.
}

// A check-in makes the dispatcher ask for consent before execute.
func ExampleWithCheckIn() {
	restart := tool.Must(tool.New("restart", "Restart a service.",
		func(ctx context.Context, in struct {
			Service string `json:"service"`
		}) (string, error) {
			return "restarted " + in.Service, nil
		},
		tool.WithCheckIn(func(args json.RawMessage) bool { return true })))
	need, _ := toolrun.NeedsCheckIn(restart.Declaration(), json.RawMessage(`{"service":"checkout"}`))
	fmt.Println(need)
	// Output: true
}

// A tool learns which call it serves, and can pause the run to ask a person.
func ExampleCallFrom() {
	deploy := tool.Must(tool.New("deploy", "Deploy a build.",
		func(ctx context.Context, in struct{}) (string, error) {
			call, err := tool.CallFrom(ctx)
			if err != nil {
				return "", err // run outside an agent
			}
			call.Progress("starting")
			return "", tool.Pause(map[string]string{"question": "Deploy during business hours? (call " + call.ID + ")"})
		}))
	ctx := toolrun.WithCall(context.Background(), tool.Call{ID: "c7", Name: "deploy", Iteration: 1, Turn: 1,
		Progress: func(p any) { fmt.Println("progress:", p) }})
	_, err := toolrun.Execute(ctx, deploy.Declaration(), nil)
	if data, ok := toolrun.PauseData(err); ok {
		fmt.Println("paused:", data)
	}
	// Output:
	// progress: starting
	// paused: map[question:Deploy during business hours? (call c7)]
}

// Hidden arguments are never printed by the record or the answer.
func ExampleWithHiddenArguments() {
	lookup := tool.Must(tool.New("lookup_account", "Look up an account.",
		func(ctx context.Context, in struct {
			AccountNumber string `json:"accountNumber"`
		}) (string, error) {
			return "active", nil
		},
		tool.WithHiddenArguments("accountNumber")))
	fmt.Println(lookup.Declaration().HiddenArguments)
	// Output: [accountNumber]
}
