// End-to-end tests of tool dispatch: errors, panics, unknown tools, invalid
// arguments, the step budget and the coverage boundary.

package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
	"github.com/agentfootprint/agentfootprint-go/tool/toolrun"
	"github.com/google/go-cmp/cmp"
)

// TestToolFailuresReachTheModel: each failure becomes the result the model
// reads next, flagged as an error, and the run continues to an answer.
func TestToolFailuresReachTheModel(t *testing.T) {
	cases := []struct {
		name       string
		call       llm.ToolCall
		wantResult []string // substrings of the served result
		wantStatus tool.Status
		ran        bool
	}{
		{"panic", call("p1", "service_status", `{"service":"boom"}`), []string{"status backend exploded"}, "", true},
		{"error", call("e1", "service_status", `{"service":"fail"}`), []string{"backend unreachable"}, "", true},
		{"unknown tool", call("u1", "restart_service", `{}`), []string{`"restart_service"`, "service_status"}, "", false},
		{"missing argument", call("v1", "service_status", `{}`), []string{"/service"}, tool.StatusInvalid, false},
		{"wrong type", call("v2", "service_status", `{"service":7}`), []string{"/service"}, tool.StatusInvalid, false},
		{"unparsable arguments", call("v3", "service_status", `{"service":`), []string{"was not run", "not valid JSON"}, tool.StatusInvalid, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var c counter
			p := scripted.New(
				scripted.Reply{ToolCalls: []llm.ToolCall{tc.call}},
				scripted.Reply{Content: "Recovered."},
			)
			a, err := agent.New(p, agent.WithTools(statusTool(t, &c)))
			if err != nil {
				t.Fatal(err)
			}
			var log eventLog
			log.on(a)
			res, err := a.Run(context.Background(), agent.Input{Message: "check"})
			if err != nil {
				t.Fatalf("run error: %v", err)
			}
			if res.Answer != "Recovered." {
				t.Errorf("answer = %q", res.Answer)
			}
			if got := len(c.List()) > 0; got != tc.ran {
				t.Errorf("tool ran = %v, want %v", got, tc.ran)
			}
			msgs := p.Requests()[1].Messages
			last := msgs[len(msgs)-1]
			if last.Role != llm.RoleTool || last.ToolCallID != tc.call.ID || !last.IsError {
				t.Fatalf("last message = %+v", last)
			}
			for _, sub := range tc.wantResult {
				if !strings.Contains(last.Content, sub) {
					t.Errorf("served %q lacks %q", last.Content, sub)
				}
			}
			results := log.of(event.ToolsResult)
			if len(results) != 1 {
				t.Fatalf("tools.result events = %d", len(results))
			}
			pl := results[0].Payload.(event.ToolsResultPayload)
			if !pl.Error || pl.Status != string(tc.wantStatus) || pl.Result != last.Content {
				t.Errorf("tools.result = %+v", pl)
			}
			invalid := log.of(event.ValidationArgsInvalid)
			if wantInvalid := tc.wantStatus == tool.StatusInvalid; (len(invalid) == 1) != wantInvalid {
				t.Errorf("validation.args_invalid events = %d", len(invalid))
			}
		})
	}
}

// TestInvalidArgumentsCorrected: every violation goes back, the model fixes
// the call, the tool then runs once.
func TestInvalidArgumentsCorrected(t *testing.T) {
	var c counter
	p := scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{call("a", "service_status", `{"service":3,"extra":true}`)}},
		scripted.Reply{ToolCalls: []llm.ToolCall{call("b", "service_status", `{"service":"checkout"}`)}},
		scripted.Reply{Content: "Checkout is degraded."},
	)
	tl, err := tool.NewRaw("service_status", "Report a service's health.",
		json.RawMessage(`{"type":"object","properties":{"service":{"type":"string"}},"required":["service"],"additionalProperties":false}`),
		func(ctx context.Context, args json.RawMessage) (any, error) {
			c.Add(string(args))
			return "degraded", nil
		})
	if err != nil {
		t.Fatal(err)
	}
	a, err := agent.New(p, agent.WithTools(tl))
	if err != nil {
		t.Fatal(err)
	}
	var log eventLog
	log.on(a)
	res, err := a.Run(context.Background(), agent.Input{Message: "check"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Answer != "Checkout is degraded." || res.Iterations != 3 {
		t.Errorf("answer %q after %d iterations", res.Answer, res.Iterations)
	}
	if diff := cmp.Diff([]string{`{"service":"checkout"}`}, c.List()); diff != "" {
		t.Errorf("executions (-want +got):\n%s", diff)
	}
	inv := log.of(event.ValidationArgsInvalid)
	if len(inv) != 1 {
		t.Fatalf("args_invalid events = %d", len(inv))
	}
	want := event.ArgsInvalid{ToolName: "service_status", ToolCallID: "a", Iteration: 1, Enforced: true,
		Issues: []event.IssueBrief{{Path: "/extra", Keyword: "additionalProperties"}, {Path: "/service", Keyword: "type"}}}
	if diff := cmp.Diff(want, inv[0].Payload); diff != "" {
		t.Errorf("args_invalid (-want +got):\n%s", diff)
	}
	served := toolMessages(p.Requests()[1].Messages)[0]
	for _, sub := range []string{"/service", "additionalProperties"} {
		if !strings.Contains(served, sub) {
			t.Errorf("served rejection %q lacks %q", served, sub)
		}
	}
}

// TestMaxIterationsWrapUp: at the budget the pending calls are not run, one
// tool-less call answers, and the record says why.
func TestMaxIterationsWrapUp(t *testing.T) {
	loop := func(id string) scripted.Reply {
		return scripted.Reply{ToolCalls: []llm.ToolCall{call(id, "service_status", `{"service":"checkout"}`)}}
	}
	for _, tc := range []struct {
		name      string
		wrap      bool
		replies   []scripted.Reply
		answer    string
		calls     int
		toolsLast int
		action    string
	}{
		{"wrap-up", true, []scripted.Reply{loop("1"), loop("2"), loop("3"), {Content: "Partial answer: checkout degraded; root cause unknown."}},
			"Partial answer: checkout degraded; root cause unknown.", 4, 1, event.ActionWrappedUp},
		{"cut short", false, []scripted.Reply{loop("1"), loop("2"), {Content: "never used"}, loop("3")},
			"", 3, 1, event.ActionCutShort},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c counter
			p := scripted.New(tc.replies...)
			if !tc.wrap {
				p = scripted.New(loop("1"), loop("2"), loop("3"))
			}
			opts := []agent.Option{agent.WithTools(statusTool(t, &c)), agent.WithMaxIterations(3)}
			if !tc.wrap {
				opts = append(opts, agent.WithoutWrapUp())
			}
			a, err := agent.New(p, opts...)
			if err != nil {
				t.Fatal(err)
			}
			var log eventLog
			log.on(a)
			res, err := a.Run(context.Background(), agent.Input{Message: "dig"})
			if err != nil {
				t.Fatal(err)
			}
			if res.Answer != tc.answer {
				t.Errorf("answer = %q, want %q", res.Answer, tc.answer)
			}
			if p.Calls() != tc.calls {
				t.Errorf("model calls = %d, want %d", p.Calls(), tc.calls)
			}
			if n := len(c.List()); n != 2 {
				t.Errorf("tool batches run = %d, want maxIterations-1 = 2", n)
			}
			last := p.Requests()[p.Calls()-1]
			if len(last.Tools) != tc.toolsLast {
				t.Errorf("tools declared on the last call = %d, want %d", len(last.Tools), tc.toolsLast)
			}
			// The wrap-up call keeps the tools declared (a history with tool
			// calls needs them) and forbids calling any.
			if wantNone := tc.wrap; (last.ToolChoice.Mode == llm.ToolChoiceNone) != wantNone {
				t.Errorf("tool choice on the last call = %+v, want none only for the wrap-up", last.ToolChoice)
			}
			be := log.of(event.AgentBudgetExhausted)
			if len(be) != 1 {
				t.Fatalf("budget_exhausted events = %d", len(be))
			}
			if diff := cmp.Diff(event.BudgetExhausted{Reason: "max-iterations", Iteration: 3, Limit: 3, PendingToolCalls: 1, Action: tc.action}, be[0].Payload); diff != "" {
				t.Errorf("budget_exhausted (-want +got):\n%s", diff)
			}
			if res.StoppedEarly == nil || res.StoppedEarly.Reason != "max-iterations" || *res.StoppedEarly.WrappedUp != tc.wrap {
				t.Errorf("stoppedEarly = %+v", res.StoppedEarly)
			}
			if tc.wrap {
				msgs := last.Messages
				if m := msgs[len(msgs)-1]; m.Role != llm.RoleUser || !strings.Contains(m.Content, "Answer now") {
					t.Errorf("wrap-up message = %+v", m)
				}
				if m := msgs[len(msgs)-2]; m.Role != llm.RoleTool || m.ToolCallID != "3" || !strings.Contains(m.Content, "not run") {
					t.Errorf("pending call message = %+v", m)
				}
			}
			// The route's decision names its rule.
			rec := res.Record
			var labels []string
			for _, cm := range rec.Log.Commits {
				if cm.StageID == "sf-route" {
					labels = append(labels, ruleLabel(cm.Decision))
				}
			}
			want := []string{"model asked for tools within the step budget", "model asked for tools within the step budget"}
			if tc.wrap {
				want = append(want, "step budget spent with tool calls pending", "default")
			} else {
				want = append(want, "default")
			}
			if diff := cmp.Diff(want, labels); diff != "" {
				t.Errorf("route labels (-want +got):\n%s", diff)
			}
		})
	}
}

func ruleLabel(d *flow.Decision) string {
	for _, r := range d.Rules {
		if r.Matched {
			return r.Label
		}
	}
	return "default"
}

// TestCoverageBoundary: an absence envelope sets status absent (not an
// error), files a coverageDeclared row and fires tools.absent; the model is
// served what boundary.Read serves of the value.
func TestCoverageBoundary(t *testing.T) {
	abs, err := coverage.Absent(coverage.AbsenceDecl{What: "errors for checkout", Checked: []coverage.Item{{What: "checkout logs"}}})
	if err != nil {
		t.Fatal(err)
	}
	tl, err := tool.NewRaw("search_logs", "Search logs.", json.RawMessage(`{"type":"object"}`),
		func(ctx context.Context, args json.RawMessage) (any, error) { return abs, nil })
	if err != nil {
		t.Fatal(err)
	}
	p := scripted.New(scripted.Reply{ToolCalls: []llm.ToolCall{call("s1", "search_logs", `{}`)}}, scripted.Reply{Content: "Nothing found."})
	a, err := agent.New(p, agent.WithTools(tl))
	if err != nil {
		t.Fatal(err)
	}
	var log eventLog
	log.on(a)
	res, err := a.Run(context.Background(), agent.Input{Message: "errors?"})
	if err != nil {
		t.Fatal(err)
	}
	rec := res.Record
	v, ok, err := flow.ValueAt(rec.Log, len(rec.Log.Commits)-1, "coverageDeclared")
	if err != nil || !ok {
		t.Fatalf("coverageDeclared: %v %v", ok, err)
	}
	rows := v.([]coverage.DeclaredCoverage)
	if len(rows) != 1 || rows[0].Kind != boundary.KindAbsence || rows[0].ToolCallID != "s1" || rows[0].Iteration != 1 || rows[0].LookedFor != "errors for checkout" {
		t.Errorf("rows = %s", mustJSON(t, rows))
	}
	if n := len(log.of(event.ToolsAbsent)); n != 1 {
		t.Errorf("tools.absent events = %d", n)
	}
	pl := log.of(event.ToolsResult)[0].Payload.(event.ToolsResultPayload)
	if pl.Status != "absent" || pl.Error {
		t.Errorf("tools.result = %+v", pl)
	}
	served := boundary.Read(abs, "search_logs", nil).Served
	want, _ := toolrun.Text(served)
	if got := toolMessages(p.Requests()[1].Messages)[0]; got != "s1:"+want {
		t.Errorf("served %q, want %q", got, want)
	}
	tr, _, _ := flow.ValueAt(rec.Log, len(rec.Log.Commits)-1, "lastToolResult")
	if r := tr.(state.ToolResult); r.Status != tool.StatusAbsent || r.OutputRef == "" {
		t.Errorf("lastToolResult = %+v", r)
	} else if _, ok := rec.Blob(r.OutputRef); !ok {
		t.Errorf("raw output blob %s missing", r.OutputRef)
	}
}

// TestCoverageEnvelopes: a ledger wrapping an absence files the ledger row
// first, then the absence; a described result fires semantics_declared and
// files its coverage as a ledger row.
func TestCoverageEnvelopes(t *testing.T) {
	abs, err := coverage.Absent(coverage.AbsenceDecl{What: "open incidents", Checked: []coverage.Item{{What: "pager"}}})
	if err != nil {
		t.Fatal(err)
	}
	wrapped, err := coverage.Wrap(abs, coverage.LedgerDecl{Checked: []coverage.Item{{What: "pager"}}, NotChecked: []coverage.Item{{What: "email"}}})
	if err != nil {
		t.Fatal(err)
	}
	described, err := coverage.Described(coverage.DescribedDecl{
		Series:     []any{map[string]any{"name": "errors", "points": []any{1, 2}}},
		Grain:      &coverage.Grain{Interval: "1h"},
		Provenance: &coverage.Provenance{MeasuredAt: "2026-09-26T10:00:00Z", Source: "metrics store"},
		Coverage:   &coverage.Ground{Checked: []coverage.Item{{What: "metrics store"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	outs := map[string]any{"w": wrapped, "d": described}
	tl, err := tool.NewRaw("lookup", "Look things up.", json.RawMessage(`{"type":"object","properties":{"k":{"type":"string"}}}`),
		func(ctx context.Context, args json.RawMessage) (any, error) {
			var in struct{ K string }
			_ = json.Unmarshal(args, &in)
			return outs[in.K], nil
		})
	if err != nil {
		t.Fatal(err)
	}
	p := scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{call("w1", "lookup", `{"k":"w"}`), call("d1", "lookup", `{"k":"d"}`)}},
		scripted.Reply{Content: "ok"},
	)
	a, _ := agent.New(p, agent.WithTools(tl))
	var log eventLog
	log.on(a)
	res, err := a.Run(context.Background(), agent.Input{Message: "look"})
	if err != nil {
		t.Fatal(err)
	}
	rows := valueAt[[]coverage.DeclaredCoverage](t, res.Record, "tool-calls#4", "coverageDeclared")
	var got []string
	for _, r := range rows {
		got = append(got, r.ToolCallID+":"+string(r.Kind))
	}
	if diff := cmp.Diff([]string{"w1:ledger", "w1:absence", "d1:ledger"}, got); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	var types []string
	for _, ty := range log.types() {
		if strings.HasPrefix(ty, "tools.") && ty != "tools.start" && ty != "tools.result" {
			types = append(types, ty)
		}
	}
	want := []string{"tools.coverage_declared", "tools.absent", "tools.semantics_declared", "tools.coverage_declared"}
	if diff := cmp.Diff(want, types); diff != "" {
		t.Errorf("boundary events (-want +got):\n%s", diff)
	}
	results := valueAt[[]state.ToolResult](t, res.Record, "tool-calls#4", "toolResults")
	if results[0].Status != tool.StatusAbsent || results[1].Status != "" {
		t.Errorf("statuses = %q, %q", results[0].Status, results[1].Status)
	}
}

// nilProvider breaks the port's contract: no reply and no error.
type nilProvider struct{}

func (nilProvider) Name() string { return "nil" }
func (nilProvider) Complete(context.Context, *llm.Request) (*llm.Response, error) {
	return nil, nil
}

func TestProviderWithoutReply(t *testing.T) {
	a, _ := agent.New(nilProvider{})
	_, err := a.Run(context.Background(), agent.Input{Message: "hi"})
	var rce *agent.RunCheckpointError
	if !errors.As(err, &rce) || !strings.Contains(err.Error(), "neither a reply nor an error") {
		t.Errorf("err = %v", err)
	}
}

func TestMaxToolResultCharsEndToEnd(t *testing.T) {
	long := strings.Repeat("x", 500)
	big := tool.Must(tool.New("dump", "Dump everything.", func(ctx context.Context, in statusIn) (string, error) { return long, nil }))
	p := scripted.New(scripted.Reply{ToolCalls: []llm.ToolCall{call("d", "dump", `{"service":"a"}`)}}, scripted.Reply{Content: "ok"})
	a, err := agent.New(p, agent.WithTools(big), agent.WithMaxToolResultChars(200))
	if err != nil {
		t.Fatal(err)
	}
	var log eventLog
	log.on(a)
	res, err := a.Run(context.Background(), agent.Input{Message: "dump"})
	if err != nil {
		t.Fatal(err)
	}
	served := p.Requests()[1].Messages[2].Content
	var m struct {
		Truncated bool   `json:"truncated"`
		Head      string `json:"head"`
	}
	if err := json.Unmarshal([]byte(served), &m); err != nil || !m.Truncated || len(served) > 200 || !strings.HasPrefix(long, m.Head) || m.Head == "" {
		t.Errorf("served %q (%v)", served, err)
	}
	if got := log.of(event.ToolsResult)[0].Payload.(event.ToolsResultPayload).Result; got != served {
		t.Errorf("tools.result carries %q, the model read %q", got, served)
	}
	// The record keeps the raw output whole.
	r := valueAt[state.ToolResult](t, res.Record, "tool-calls#4", "lastToolResult")
	if b, ok := res.Record.Blob(r.OutputRef); !ok || string(b) != long {
		t.Errorf("raw output blob = %d bytes, %v", len(b), ok)
	}
	if _, err := agent.New(p, agent.WithMaxToolResultChars(0)); err == nil {
		t.Error("a zero cap was accepted")
	}
}
