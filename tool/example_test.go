package tool_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/tool"
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
	fmt.Println(string(search.InputSchema()))
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
	out, err := ping.Execute(context.Background(), json.RawMessage(`{"host":"db-1"}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	text, _ := out.Text()
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

// The dispatcher validates before it executes; every issue goes back to the
// model in one result.
func ExampleTool_Validate() {
	search := tool.Must(tool.New("search_logs", "Search a service's error logs.", searchLogs))
	rej := search.Validate(json.RawMessage(`{"window":2,"verbose":true}`), "")
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

// A Result states a status next to the content.
func ExampleResult() {
	lookup := tool.Must(tool.New("find_user", "Find a user by email.",
		func(ctx context.Context, in struct {
			Email string `json:"email"`
		}) (tool.Result, error) {
			return tool.Result{Content: "no user with that email", Status: tool.StatusAbsent}, nil
		}))
	out, _ := lookup.Execute(context.Background(), json.RawMessage(`{"email":"a@b.c"}`))
	text, _ := out.Text()
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
	p, _ := search.Period()
	fmt.Println(search.Ruled(), p.Argument, p.Spelling, p.UnitsOrDefault())

	_, err = tool.New("search_logs", "Search a service's error logs.", searchLogs,
		tool.WithAskOrAssume(map[string]tool.Rule{"window": {Assume: "2 hours"}}),
		tool.WithPeriod(tool.Period{Argument: "window", Spelling: tool.SpellingLookback}),
	)
	var de *tool.DefinitionError
	errors.As(err, &de)
	fmt.Println(de.Path)
	// Output:
	// true window lookback mhdw
	// period.spelling
}

// One grammar for period values: parse, format, convert.
func ExampleParsePeriod() {
	v, err := tool.ParsePeriod("24h", tool.SpellingLookback, "")
	fmt.Println(v.Count, string(v.Unit), v, err)
	d, _ := v.Duration()
	fmt.Println(d)
	fmt.Println(tool.ParsesUnder("02h", tool.SpellingLookback, ""))
	fmt.Println(tool.ParsesUnder("2026-10-09T00:00:00Z..2026-10-10T00:00:00Z", tool.SpellingISORange, ""))
	signed, _ := tool.ConvertSpelling("24h", tool.SpellingLookback, tool.SpellingSignedLookback)
	fmt.Println(signed)
	// Output:
	// 24 h 24h <nil>
	// 24h0m0s
	// false
	// true
	// -24h
}

// A ceiling refuses an oversized result whole.
func ExampleWithResultCeiling() {
	dump := tool.Must(tool.New("dump_table", "Dump a table.",
		func(ctx context.Context, in struct{}) (string, error) { return "0123456789abcdef", nil },
		tool.WithResultCeiling(10, "a row range")))
	out, _ := dump.Execute(context.Background(), nil)
	text, _ := out.Text()
	c, _ := dump.ResultCeiling()
	refusal, size, over := c.Check(dump.Name(), text)
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
		tool.WithCheckIn(tool.CheckInAlways)))
	need, _ := restart.NeedsCheckIn(json.RawMessage(`{"service":"checkout"}`))
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
	ctx := tool.WithCall(context.Background(), tool.Call{ID: "c7", Name: "deploy", Iteration: 1, Turn: 1,
		Progress: func(p any) { fmt.Println("progress:", p) }})
	_, err := deploy.Execute(ctx, nil)
	var pr *tool.PauseRequest
	if errors.As(err, &pr) {
		fmt.Println("paused:", pr.Data)
	}
	// Output:
	// progress: starting
	// paused: map[question:Deploy during business hours? (call c7)]
}

// The same assert New runs, for tools defined elsewhere (a provider's, an
// MCP server's).
func ExampleAssertDeclarations() {
	schema := json.RawMessage(`{"type":"object","properties":{"window":{"type":"string","enum":["1h","24h"]}}}`)
	err := tool.AssertDeclarations("remote_search", schema, map[string]tool.Rule{"window": {Assume: "2h"}}, nil)
	var de *tool.DefinitionError
	if errors.As(err, &de) {
		fmt.Println(de.Tool, de.Path)
	}
	// Output: remote_search askOrAssume.window.assume
}

// A person's answer is checked against the argument's own schema before it
// is filled in.
func ExampleTool_CheckArgument() {
	search := tool.Must(tool.NewRaw("search_logs", "Search logs.",
		json.RawMessage(`{"type":"object","properties":{"limit":{"type":"integer","minimum":1}}}`),
		func(ctx context.Context, args json.RawMessage) (any, error) { return "[]", nil }))
	fmt.Println(search.CheckArgument("limit", 20) == nil)
	for _, is := range search.CheckArgument("limit", 2.5).Issues {
		fmt.Println(is.Path, is.Keyword, is.Expected, is.Got)
	}
	// Output:
	// true
	// /limit type integer number
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
	fmt.Println(lookup.Hidden("accountNumber"), lookup.HiddenArguments())
	// Output: true [accountNumber]
}
