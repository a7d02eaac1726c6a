package agent_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

type searchLogsIn struct {
	Service string `json:"service" jsonschema:"the service whose logs to search"`
	Window  string `json:"window" jsonschema:"how far back to look"`
}

// seen keeps the arguments a tool ran with.
type seen struct {
	mu   sync.Mutex
	args []searchLogsIn
	time []*tool.CallTime
}

func (s *seen) got() []searchLogsIn {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]searchLogsIn(nil), s.args...)
}

// searchLogs is the inputs spec's base tool: window is ruled and is the
// tool's period argument; the tool returns result.
func searchLogs(t testing.TB, rule tool.Rule, p tool.Period, sn *seen, result any, opts ...tool.Option) *tool.Tool {
	t.Helper()
	opts = append([]tool.Option{tool.WithAskOrAssume(map[string]tool.Rule{"window": rule}), tool.WithPeriod(p)}, opts...)
	tl, err := tool.New("search_logs", "Search a service's error logs.",
		func(ctx context.Context, in searchLogsIn) (any, error) {
			sn.mu.Lock()
			sn.args = append(sn.args, in)
			call, _ := tool.CallFrom(ctx)
			sn.time = append(sn.time, call.Time)
			sn.mu.Unlock()
			return result, nil
		}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

var lookback = tool.Period{Argument: "window", Spelling: tool.SpellingLookback}

func runOnce(t *testing.T, tl *tool.Tool, args string, in agent.Input, opts ...agent.Option) (*agent.Result, *eventLog) {
	t.Helper()
	p := scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{call("c1", "search_logs", args)}},
		scripted.Reply{Content: "No errors."},
	)
	a, err := agent.New(p, append([]agent.Option{agent.WithTools(tl)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	log := &eventLog{}
	log.on(a)
	if in.Message == "" {
		in.Message = "Any errors in checkout?"
	}
	res, err := a.Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	return res, log
}

// rowsOfKind returns the findings rows of one kind as JSON.
func rowsOfKind(t *testing.T, res *agent.Result, kind string) []string {
	t.Helper()
	var out []string
	for _, r := range res.Record.Findings() {
		if r.Kind() == kind {
			out = append(out, mustJSON(t, r))
		}
	}
	return out
}

func reasonsOf(res *agent.Result) []string {
	a := res.Assessment
	if a == nil {
		return nil
	}
	var out []string
	for _, r := range a.Reasons {
		out = append(out, r.Reason)
	}
	return out
}

const assumedNote = "\n\n[The search_logs call this result answers had no window; it ran with \"2h\", the default the tool's rule declares, and the record files that value as assumed, not as the person's choice.]"

// I1: a missing window is filled from the assume rule, on a fresh object.
func TestInputsAssumeFillsDefault(t *testing.T) {
	sn := &seen{}
	res, log := runOnce(t, searchLogs(t, tool.Rule{Assume: "2h"}, lookback, sn, []string{}), `{"service":"checkout"}`, agent.Input{})
	if diff := cmp.Diff([]searchLogsIn{{Service: "checkout", Window: "2h"}}, sn.got()); diff != "" {
		t.Errorf("execute args (-want +got):\n%s", diff)
	}
	starts := log.of(event.ToolsStart)
	if len(starts) != 1 || string(starts[0].Payload.(event.ToolsStartPayload).Args) != `{"service":"checkout"}` {
		t.Errorf("tools.start args: %+v", starts)
	}
	hist := res.History
	if got := toolMessages(hist); len(got) != 1 || got[0] != "c1:[]"+assumedNote {
		t.Errorf("tool message %q", got)
	}
	for _, m := range hist {
		for _, c := range m.ToolCalls {
			if strings.Contains(string(c.Args), "window") {
				t.Errorf("history's call args were changed: %s", c.Args)
			}
		}
	}
	want := []string{`{"kind":"argument","turn":1,"toolCallId":"c1","toolName":"search_logs","iteration":1,"argument":"window","rule":"assume","period":true,"source":"default","value":"2h"}`}
	if diff := cmp.Diff(want, rowsOfKind(t, res, "argument")); diff != "" {
		t.Errorf("argument rows (-want +got):\n%s", diff)
	}
	evs := log.of(event.FindingsArgument)
	if len(evs) != 1 {
		t.Fatalf("findings.argument events: %d", len(evs))
	}
	if got := mustJSON(t, evs[0].Payload); got != `{"toolCallId":"c1","toolName":"search_logs","iteration":1,"turn":1,"argument":"window","rule":"assume","period":true,"source":"default","valueChars":2}` {
		t.Errorf("event payload %s", got)
	}
	reasons := reasonsOf(res)
	if !contains(reasons, "argument-assumed") {
		t.Errorf("reasons %v lack argument-assumed", reasons)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// I2 and I3: a value the model sent runs as sent, with no note.
func TestInputsModelValueRunsAsSent(t *testing.T) {
	cases := []struct {
		window, row, reason string
	}{
		{"2h", `{"kind":"argument","turn":1,"toolCallId":"c1","toolName":"search_logs","iteration":1,"argument":"window","rule":"assume","period":true,"source":"default","value":"2h","proposed":"2h"}`, "argument-assumed"},
		{"24h", `{"kind":"argument","turn":1,"toolCallId":"c1","toolName":"search_logs","iteration":1,"argument":"window","rule":"assume","period":true,"source":"model","value":"24h"}`, "argument-unverified"},
	}
	for _, c := range cases {
		t.Run(c.window, func(t *testing.T) {
			sn := &seen{}
			res, _ := runOnce(t, searchLogs(t, tool.Rule{Assume: "2h"}, lookback, sn, []string{}), `{"service":"checkout","window":"`+c.window+`"}`, agent.Input{})
			if got := sn.got(); len(got) != 1 || got[0].Window != c.window {
				t.Errorf("execute args %+v", got)
			}
			if got := toolMessages(res.History); len(got) != 1 || got[0] != "c1:[]" {
				t.Errorf("tool message %q (want no note)", got)
			}
			if diff := cmp.Diff([]string{c.row}, rowsOfKind(t, res, "argument")); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
			if !contains(reasonsOf(res), c.reason) {
				t.Errorf("reasons %v lack %s", reasonsOf(res), c.reason)
			}
		})
	}
}

// I9: the Assumed block follows the answer under WithLimitsBlock;
// a hidden value is never printed.
func TestInputsAssumedBlock(t *testing.T) {
	sn := &seen{}
	res, _ := runOnce(t, searchLogs(t, tool.Rule{Assume: "2h"}, lookback, sn, []string{}), `{"service":"checkout"}`, agent.Input{}, agent.WithLimitsBlock())
	want := "No errors.\n\n---\n\nAssumed (a tool's rule chose these values, not the person):\n- window = \"2h\" (search_logs)"
	if res.Answer != want {
		t.Errorf("answer\n got %q\nwant %q", res.Answer, want)
	}

	sn = &seen{}
	res, log := runOnce(t, searchLogs(t, tool.Rule{Assume: "2h"}, lookback, sn, []string{}, tool.WithHiddenArguments("window")), `{"service":"checkout"}`, agent.Input{}, agent.WithLimitsBlock())
	if got := sn.got(); len(got) != 1 || got[0].Window != "2h" {
		t.Errorf("hidden: execute args %+v", got)
	}
	everything := res.Answer + strings.Join(rowsOfKind(t, res, "argument"), "") + strings.Join(toolMessages(res.History), "")
	for _, e := range log.of(event.FindingsArgument) {
		everything += mustJSON(t, e.Payload)
	}
	if strings.Contains(everything, "2h") || !strings.Contains(everything, `"value":"REDACTED"`) {
		t.Errorf("hidden value leaked or not redacted: %s", everything)
	}
}

// A batch the route will not dispatch (wrap-up) files nothing; an agent
// with no ruled tool and no WithInputsLayer has no sf-inputs stage.
func TestInputsUnarmedAddsNothing(t *testing.T) {
	p := scripted.New(scripted.Reply{ToolCalls: []llm.ToolCall{call("c1", "service_status", `{"service":"a"}`)}}, scripted.Reply{Content: "ok"})
	a, err := agent.New(p, agent.WithTools(statusTool(t, nil)))
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Run(context.Background(), agent.Input{Message: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range stageIDs(res.Record) {
		if strings.Contains(id, "sf-inputs") {
			t.Errorf("unarmed agent ran %s", id)
		}
	}
	if res.Record.Findings() != nil {
		t.Errorf("unarmed findings %v", res.Record.Findings())
	}
}

// I4: the served schema drops ruled arguments from required and says what
// the rule does; the registered schema is unchanged.
func TestInputsServedSchema(t *testing.T) {
	rec := &recorder{}
	tl := searchLogs(t, tool.Rule{Assume: "2h"}, lookback, &seen{}, []string{})
	before := string(tl.Declaration().InputSchema)
	a, err := agent.New(rec.provider(scripted.Reply{Content: "ok"}), agent.WithTools(tl, statusTool(t, nil)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Run(context.Background(), agent.Input{Message: "hi"}); err != nil {
		t.Fatal(err)
	}
	var served struct {
		Required   []string `json:"required"`
		Properties map[string]struct {
			Description string `json:"description"`
		} `json:"properties"`
	}
	tools := rec.reqs[0].Tools
	if err := json.Unmarshal(tools[0].InputSchema, &served); err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal([]string{"service"}, served.Required) || !strings.HasSuffix(served.Properties["window"].Description, ` If left out, the tool's rule fills "2h" and the record marks it assumed.`) {
		t.Errorf("served %s", tools[0].InputSchema)
	}
	if string(tools[1].InputSchema) != string(statusTool(t, nil).Declaration().InputSchema) || string(tl.Declaration().InputSchema) != before {
		t.Error("an unruled tool's or the registered schema changed")
	}
}

// I13: a batch the route sends to wrap-up is not resolved: no rows, no ask,
// argumentResolutions is [].
func TestInputsWrapUpBatchFilesNothing(t *testing.T) {
	sn := &seen{}
	p := scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{call("c1", "search_logs", `{"service":"checkout"}`)}},
		scripted.Reply{Content: "Out of steps."},
	)
	a, err := agent.New(p, agent.WithTools(searchLogs(t, askWindow, lookback, sn, []string{})), agent.WithMaxIterations(1))
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Run(context.Background(), agent.Input{Message: "errors?"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Paused || len(sn.got()) != 0 || len(rowsOfKind(t, res, "argument")) != 0 {
		t.Errorf("paused %v, ran %v, rows %v", res.Paused, sn.got(), rowsOfKind(t, res, "argument"))
	}
	log := res.Record.Log
	v, ok, err := flow.ValueAt(log, len(log.Commits)-1, "argumentResolutions")
	if err != nil || !ok || mustJSON(t, v) != "[]" {
		t.Errorf("argumentResolutions = %v (%v, %v)", v, ok, err)
	}
}
