// End-to-end scenarios of the results layer on the scripted model
// (scenarios S1–S19): verdicts per call, one row per judged call, batches
// told apart by iteration, the ledger across turns, limits on the answer, the
// standing, and nothing at all when unarmed.

package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/internal/agenttest"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	"github.com/agentfootprint/agentfootprint-go/coverage/wire"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/honesty/assess"
	"github.com/agentfootprint/agentfootprint-go/honesty/limits"
	"github.com/agentfootprint/agentfootprint-go/internal/coverage/engine"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
	"github.com/google/go-cmp/cmp"
)

var (
	rlQ     = coverage.Span{From: "2026-09-26T09:00:00Z", To: "2026-09-26T10:00:00Z"}
	rlStale = coverage.Period{Queried: rlQ, Held: coverage.Held{Span: coverage.Span{From: "2026-08-27T02:00:00Z", To: "2026-09-26T02:00:00Z"}}}
	rlFresh = coverage.Period{Queried: rlQ, Held: coverage.Held{Span: coverage.Span{From: "2026-09-26T00:00:00Z", To: "2026-09-26T12:00:00Z"}}}
	rlUnk   = coverage.Period{Queried: rlQ, Held: coverage.Held{Unknown: true}}
	rlPart  = coverage.Period{Queried: coverage.Span{From: "2026-08-27T00:00:00Z", To: "2026-09-26T00:00:00Z"},
		Held: coverage.Held{Span: coverage.Span{From: "2026-09-19T00:00:00Z", To: "2026-09-26T00:00:00Z"}}}
	instantRE = regexp.MustCompile(`\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}`)
)

// must returns v, and panics on a setup error (a scripted fixture that fails to build is a
// defect of the test itself).
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// queueTool returns the given results in order, one per call.
func queueTool(t testing.TB, name string, results ...any) *tool.Tool {
	t.Helper()
	var mu sync.Mutex
	i := 0
	return must(tool.NewRaw(name, "Read backup runs.", json.RawMessage(`{"type":"object"}`),
		func(ctx context.Context, args json.RawMessage) (any, error) {
			mu.Lock()
			defer mu.Unlock()
			if i >= len(results) {
				return "no more scripted results", nil
			}
			i++
			return results[i-1], nil
		}))
}

func s1Absent(t testing.TB, p coverage.Period) coverage.Envelope {
	return must(coverage.Absent(coverage.AbsenceDecl{What: "failed backup runs for host-103",
		Checked: []coverage.Item{{What: "every job in the 02:00 export"}}, Period: &p}))
}

// runOnce runs one turn of a new agent over the script and returns it.
func runResults(t *testing.T, replies []scripted.Reply, tools []*tool.Tool, opts ...agent.Option) (*agent.Result, *scripted.Provider, *eventLog) {
	t.Helper()
	p := scripted.New(replies...)
	a := must(agent.New(p, append([]agent.Option{agent.WithTools(tools...)}, opts...)...))
	log := &eventLog{}
	log.on(a)
	res, err := a.Run(context.Background(), agent.Input{Message: "Any failed backups for host-103 at 09:00?"})
	if err != nil {
		t.Fatal(err)
	}
	return res, p, log
}

func finalState(t *testing.T, res *agent.Result, key string) (any, bool) {
	t.Helper()
	rec := res.Record.Log
	v, ok, err := flow.ValueAt(rec, len(rec.Commits)-1, key)
	if err != nil {
		t.Fatal(err)
	}
	return v, ok
}

func rowsJSON(t *testing.T, res *agent.Result) []string {
	t.Helper()
	var out []string
	for _, r := range res.Record.Findings() {
		out = append(out, mustJSON(t, r))
	}
	return out
}

func reasonNames(a *assess.Assessment) []string {
	out := []string{}
	for _, r := range a.Reasons {
		out = append(out, r.Reason)
	}
	return out
}

func checkOf(a *assess.Assessment, name string) (assess.Check, bool) {
	for _, c := range a.Checked {
		if c.Check == name {
			return c, true
		}
	}
	return assess.Check{}, false
}

// checkPeriodEvents pins S19 on every findings.period of a run.
func checkPeriodEvents(t *testing.T, log *eventLog) {
	t.Helper()
	for _, e := range log.of(event.FindingsPeriod) {
		b := mustJSON(t, e.Payload)
		var m map[string]any
		_ = json.Unmarshal([]byte(b), &m)
		if len(m) != 5 || m["toolCallId"] == nil || m["toolName"] == nil || m["iteration"] == nil || m["turn"] == nil || m["verdict"] == nil {
			t.Errorf("findings.period payload %s: want exactly toolCallId, toolName, iteration, turn, verdict", b)
		}
		if instantRE.MatchString(b) {
			t.Errorf("findings.period payload carries an instant: %s", b)
		}
		if e.Meta.SubflowPath != "sf-results" {
			t.Errorf("findings.period fired from %q, want inside sf-results", e.Meta.SubflowPath)
		}
	}
}

func oneCall(id string) scripted.Reply {
	return scripted.Reply{ToolCalls: []llm.ToolCall{call(id, "backup_runs", `{}`)}}
}

func TestResultsLayerS1(t *testing.T) {
	res, p, log := runResults(t, []scripted.Reply{oneCall("c1"), {Content: "No failures."}},
		[]*tool.Tool{queueTool(t, "backup_runs", s1Absent(t, rlStale))}, agent.WithResultsLayer())
	if pl := log.of(event.ToolsResult)[0].Payload.(event.ToolsResultPayload); pl.Status != "absent" || pl.Error {
		t.Errorf("tools.result = %+v, want status absent and no error", pl)
	}
	cd, _ := finalState(t, res, "coverageDeclared")
	if rows := cd.([]coverage.DeclaredCoverage); len(rows) != 1 || rows[0].Kind != boundary.KindAbsence || rows[0].ToolCallID != "c1" || rows[0].Iteration != 1 || rows[0].Period == nil {
		t.Errorf("coverageDeclared = %s", mustJSON(t, rows))
	}
	if n := len(log.of(event.ToolsAbsent)); n != 1 {
		t.Errorf("tools.absent fired %d times", n)
	}
	want := []string{`{"kind":"period","turn":1,"toolCallId":"c1","toolName":"backup_runs","iteration":1,"verdict":"not-held"}`}
	if diff := cmp.Diff(want, rowsJSON(t, res)); diff != "" {
		t.Errorf("findingsLedger (-want +got):\n%s", diff)
	}
	evs := log.of(event.FindingsPeriod)
	if len(evs) != 1 || mustJSON(t, evs[0].Payload) != `{"toolCallId":"c1","toolName":"backup_runs","iteration":1,"turn":1,"verdict":"not-held"}` {
		t.Errorf("findings.period events = %d, first %v", len(evs), evs)
	}
	checkPeriodEvents(t, log)
	if hl, _ := finalState(t, res, "honestyLayers"); mustJSON(t, hl) != `{"results":true}` {
		t.Errorf("honestyLayers = %v", hl)
	}
	// Request 2: the served note and verdict.
	var served map[string]any
	if err := json.Unmarshal([]byte(strings.TrimPrefix(toolMessages(p.Requests()[1].Messages)[0], "c1:")), &served); err != nil {
		t.Fatal(err)
	}
	if served["note"] != engine.AbsenceNoteHeldOnly+" "+engine.ClauseNotHeld {
		t.Errorf("served note = %q", served["note"])
	}
	if v := served["period"].(map[string]any)["verdict"]; v != "not-held" {
		t.Errorf("served period.verdict = %v", v)
	}
	a := res.Assessment
	if diff := cmp.Diff([]string{"declared-absent", "period-not-held"}, reasonNames(a)); diff != "" {
		t.Errorf("reasons (-want +got):\n%s", diff)
	}
	if c, ok := checkOf(a, "result-period"); a.Standing != "not-sure" || !ok || c.Ran != 1 || c.Of != 1 {
		t.Errorf("standing %s, result-period %+v", a.Standing, c)
	}
	// The turn_end event carries the same assessment.
	te := log.of(event.AgentTurnEnd)[0].Payload.(event.TurnEnd)
	if mustJSON(t, te.AnswerAssessment) != mustJSON(t, a) {
		t.Errorf("turn_end.answerAssessment = %s\nwant %s", te.AnswerAssessment, mustJSON(t, a))
	}
}

func TestResultsLayerS2LimitsOnTheAnswer(t *testing.T) {
	res, _, log := runResults(t, []scripted.Reply{oneCall("c1"), {Content: "No failures."}},
		[]*tool.Tool{queueTool(t, "backup_runs", s1Absent(t, rlStale))}, agent.WithResultsLayer(), agent.WithLimitsBlock())
	want := "No failures.\n\n---\n\n" + limits.Heading + "\n\nChecked:\n- every job in the 02:00 export\n\nPeriod:\n- " +
		"backup_runs queried 2026-09-26T09:00:00Z to 2026-09-26T10:00:00Z; the store holds 2026-08-27T02:00:00Z to 2026-09-26T02:00:00Z"
	if res.Answer != want {
		t.Errorf("answer:\n%s\nwant:\n%s", res.Answer, want)
	}
	if te := log.of(event.AgentTurnEnd)[0].Payload.(event.TurnEnd); te.FinalContent != want {
		t.Errorf("turn_end.finalContent differs from the answer")
	}
}

func TestResultsLayerVerdicts(t *testing.T) { // S3, S4, S5
	described := must(coverage.Described(coverage.DescribedDecl{Facts: []any{map[string]any{"job": "nightly", "status": "ok"}},
		Provenance: &coverage.Provenance{MeasuredAt: "2026-09-26T10:00:00Z", Source: "backup db"}, Period: &rlFresh}))
	partly := must(coverage.Wrap([]any{map[string]any{"run": 1}}, coverage.LedgerDecl{Checked: []coverage.Item{{What: "the runs table"}}, Period: &rlPart}))
	unknown := must(coverage.Wrap([]any{map[string]any{"run": 1}}, coverage.LedgerDecl{Checked: []coverage.Item{{What: "the runs table"}}, Period: &rlUnk}))
	tests := []struct {
		name     string
		result   any
		verdict  string
		reasons  []string
		standing string
		clause   string
	}{
		{"S3 described, fresh", described, "covered", []string{}, "consistent", ""},
		{"S4 thirty days asked, seven held", partly, "partly-held", []string{"period-partly-held"}, "not-sure", engine.ClausePartlyHeld},
		{"S5 held unknown on a non-empty ledger", unknown, "unknown", []string{"period-unknown"}, "not-sure", engine.ClauseUnknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, p, log := runResults(t, []scripted.Reply{oneCall("c1"), {Content: "Done."}},
				[]*tool.Tool{queueTool(t, "backup_runs", tt.result)}, agent.WithResultsLayer())
			rows := res.Record.Findings()
			if len(rows) != 1 {
				t.Fatalf("rows = %v", rowsJSON(t, res))
			}
			if pr, _ := rows[0].Period(); string(pr.Verdict) != tt.verdict {
				t.Errorf("verdict %s, want %s", pr.Verdict, tt.verdict)
			}
			a := res.Assessment
			if diff := cmp.Diff(tt.reasons, reasonNames(a)); diff != "" || a.Standing != tt.standing {
				t.Errorf("standing %s, reasons (-want +got):\n%s", a.Standing, diff)
			}
			if c, ok := checkOf(a, "result-period"); !ok || c.Ran != 1 || c.Of != 1 {
				t.Errorf("result-period = %+v", c)
			}
			servedText := toolMessages(p.Requests()[1].Messages)[0]
			if tt.clause == "" {
				if strings.Contains(servedText, `"verdict"`) {
					t.Errorf("a covered period was served with a verdict: %s", servedText)
				}
			} else if !strings.Contains(servedText, `"verdict":"`+tt.verdict+`"}`) || !strings.Contains(servedText, jsonEscape(tt.clause)) {
				t.Errorf("served %s: want the %s verdict last in the period and its clause", servedText, tt.verdict)
			}
			checkPeriodEvents(t, log)
		})
	}
}

func jsonEscape(s string) string {
	b, _ := json.Marshal(s)
	return strings.Trim(string(b), `"`)
}

func TestResultsLayerS7WrapAroundAbsent(t *testing.T) {
	wrapped := must(coverage.Wrap(s1Absent(t, rlStale), coverage.LedgerDecl{Checked: []coverage.Item{{What: "the export index"}}, Period: &rlFresh}))
	res, _, log := runResults(t, []scripted.Reply{oneCall("c1"), {Content: "No failures."}},
		[]*tool.Tool{queueTool(t, "backup_runs", wrapped)}, agent.WithResultsLayer(), agent.WithLimitsBlock())
	cd, _ := finalState(t, res, "coverageDeclared")
	rows := cd.([]coverage.DeclaredCoverage)
	if len(rows) != 2 || rows[0].Kind != boundary.KindLedger || rows[1].Kind != boundary.KindAbsence {
		t.Fatalf("coverageDeclared = %s", mustJSON(t, rows))
	}
	var order []event.Name
	for _, e := range log.evs {
		if e.Type == event.ToolsCoverageDeclared || e.Type == event.ToolsAbsent {
			order = append(order, e.Type)
		}
	}
	if diff := cmp.Diff([]event.Name{event.ToolsCoverageDeclared, event.ToolsAbsent}, order); diff != "" {
		t.Errorf("boundary events (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{`{"kind":"period","turn":1,"toolCallId":"c1","toolName":"backup_runs","iteration":1,"verdict":"not-held"}`}, rowsJSON(t, res)); diff != "" {
		t.Errorf("one row, least held (-want +got):\n%s", diff)
	}
	_, after, _ := strings.Cut(res.Answer, "Period:\n")
	if n := strings.Count(after, "\n- ") + 1; n != 2 {
		t.Errorf("Period lines = %d, want 2:\n%s", n, res.Answer)
	}
}

func TestResultsLayerS10ReentryJudgesNothing(t *testing.T) {
	res, _, log := runResults(t, []scripted.Reply{oneCall("c1"), oneCall("c2"), {Content: "No failures."}},
		[]*tool.Tool{queueTool(t, "backup_runs", s1Absent(t, rlStale), s1Absent(t, rlStale))},
		agent.WithResultsLayer(), agent.WithMaxIterations(2))
	if n := len(res.Record.Findings()); n != 1 {
		t.Errorf("rows = %v, want exactly one", rowsJSON(t, res))
	}
	if n := len(log.of(event.FindingsPeriod)); n != 1 {
		t.Errorf("findings.period fired %d times", n)
	}
	// The loop head ran three times; only the visit right after the batch wrote the ledger.
	var writes int
	for _, c := range res.Record.Log.Commits {
		if c.StageID == "sf-results" {
			writes += len(c.Ops)
		}
	}
	if writes != 1 {
		t.Errorf("sf-results wrote %d ops across the run, want 1", writes)
	}
}

func TestResultsLayerS11ReusedIDAcrossBatches(t *testing.T) {
	covered := must(coverage.Wrap([]any{1}, coverage.LedgerDecl{Checked: []coverage.Item{{What: "runs"}}, Period: &rlFresh}))
	res, _, _ := runResults(t, []scripted.Reply{oneCall("c1"), oneCall("c1"), {Content: "Done."}},
		[]*tool.Tool{queueTool(t, "backup_runs", covered, s1Absent(t, rlStale))}, agent.WithResultsLayer())
	want := []string{
		`{"kind":"period","turn":1,"toolCallId":"c1","toolName":"backup_runs","iteration":1,"verdict":"covered"}`,
		`{"kind":"period","turn":1,"toolCallId":"c1","toolName":"backup_runs","iteration":2,"verdict":"not-held"}`,
	}
	if diff := cmp.Diff(want, rowsJSON(t, res)); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	if !strings.Contains(strings.Join(reasonNames(res.Assessment), ","), "period-not-held") {
		t.Errorf("a later covered row hid the not-held one: %v", reasonNames(res.Assessment))
	}
}

func TestResultsLayerS12S18NextTurns(t *testing.T) {
	covered := must(coverage.Wrap([]any{1}, coverage.LedgerDecl{Checked: []coverage.Item{{What: "runs"}}, Period: &rlFresh}))
	p := scripted.New(oneCall("c1"), scripted.Reply{Content: "All fine."}, oneCall("c1"), scripted.Reply{Content: "Still fine."}, scripted.Reply{Content: "Nothing new."})
	a := must(agent.New(p, agent.WithTools(queueTool(t, "backup_runs", covered, s1Absent(t, rlStale))), agent.WithResultsLayer()))
	conv := a.NewConversation()
	must(conv.Send(context.Background(), agent.Input{Message: "backups?"}))
	if cv := checkpointOf(t, conv); string(cv.FindingsLedger) == "" {
		t.Fatal("the conversation checkpoint carries no ledger")
	}
	restored := reload(t, a, conv)
	r2 := must(restored.Send(context.Background(), agent.Input{Message: "and now?"}))
	want := []string{
		`{"kind":"period","turn":1,"toolCallId":"c1","toolName":"backup_runs","iteration":1,"verdict":"covered"}`,
		`{"kind":"period","turn":2,"toolCallId":"c1","toolName":"backup_runs","iteration":1,"verdict":"not-held"}`,
	}
	if diff := cmp.Diff(want, rowsJSON(t, r2)); diff != "" {
		t.Errorf("S12 ledger (-want +got):\n%s", diff)
	}
	a2 := r2.Assessment
	if diff := cmp.Diff([]string{"declared-absent", "period-not-held"}, reasonNames(a2)); diff != "" {
		t.Errorf("S12 turn-2 reasons (-want +got):\n%s", diff)
	}
	if c, _ := checkOf(a2, "result-period"); c.Of != 1 || c.Witness[0].Path != "/1/verdict" {
		t.Errorf("S12 folded the turn-1 row: %+v", c)
	}
	// S18: a third turn with no tool call folds none of the restored rows.
	r3 := must(restored.Send(context.Background(), agent.Input{Message: "anything else?"}))
	a3 := r3.Assessment
	if len(r3.Record.Findings()) != 2 || len(a3.Reasons) != 0 {
		t.Errorf("S18: rows %v, reasons %v", rowsJSON(t, r3), reasonNames(a3))
	}
	if _, ok := checkOf(a3, "result-period"); ok {
		t.Error("S18: a result-period entry with no period row this turn")
	}
}

func TestResultsLayerS13UnarmedAddsNothing(t *testing.T) {
	script := func() []scripted.Reply { return []scripted.Reply{oneCall("c1"), {Content: "No failures."}} }
	plain, pp, plog := runResults(t, script(), []*tool.Tool{queueTool(t, "backup_runs", s1Absent(t, rlStale))})
	armed, ap, _ := runResults(t, script(), []*tool.Tool{queueTool(t, "backup_runs", s1Absent(t, rlStale))}, agent.WithResultsLayer())
	for _, k := range []string{"findingsLedger", "honestyLayers", "toolResultsIteration"} {
		if _, ok := finalState(t, plain, k); ok {
			t.Errorf("unarmed run has key %s", k)
		}
	}
	for _, id := range stageIDs(plain.Record) {
		if strings.HasPrefix(id, "sf-results") {
			t.Errorf("unarmed run has stage %s", id)
		}
	}
	if n := len(plog.of(event.FindingsPeriod)); n != 0 {
		t.Errorf("unarmed run fired %d findings.period", n)
	}
	if plain.Record.Findings() != nil {
		t.Error("unarmed run reports findings")
	}
	if a := plain.Assessment; a.Standing != assess.StandingNotAssessed || len(a.Reasons) != 1 || a.Reasons[0].Reason != "results-layer-not-armed" {
		t.Errorf("unarmed run's assessment = %+v, want not-assessed with the one reason %s", a, "results-layer-not-armed")
	}
	if n := len(plog.of(event.ToolsAbsent)); n != 1 {
		t.Errorf("the boundary still fires tools.absent: got %d", n)
	}
	if te := plog.of(event.AgentTurnEnd)[0].Payload.(event.TurnEnd); te.AnswerAssessment != nil {
		t.Errorf("unarmed turn_end carries an assessment: %s", te.AnswerAssessment)
	}
	// The layer adds no byte to what the model is sent, and none to the answer.
	if diff := cmp.Diff(mustJSON(t, pp.Requests()), mustJSON(t, ap.Requests())); diff != "" {
		t.Errorf("requests differ armed vs unarmed (-unarmed +armed):\n%s", diff)
	}
	if plain.Answer != armed.Answer {
		t.Errorf("answers differ: %q vs %q", plain.Answer, armed.Answer)
	}
}

func TestResultsLayerS14TwoCallsOneBatch(t *testing.T) {
	unk := must(coverage.Wrap([]any{1}, coverage.LedgerDecl{Checked: []coverage.Item{{What: "runs"}}, Period: &rlUnk}))
	res, _, log := runResults(t, []scripted.Reply{{ToolCalls: []llm.ToolCall{call("c1", "backup_runs", `{}`), call("c2", "backup_runs", `{}`)}}, {Content: "Done."}},
		[]*tool.Tool{queueTool(t, "backup_runs", s1Absent(t, rlStale), unk)}, agent.WithResultsLayer())
	want := []string{
		`{"kind":"period","turn":1,"toolCallId":"c1","toolName":"backup_runs","iteration":1,"verdict":"not-held"}`,
		`{"kind":"period","turn":1,"toolCallId":"c2","toolName":"backup_runs","iteration":1,"verdict":"unknown"}`,
	}
	if diff := cmp.Diff(want, rowsJSON(t, res)); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	a := res.Assessment
	if diff := cmp.Diff([]string{"declared-absent", "period-not-held", "period-unknown"}, reasonNames(a)); diff != "" {
		t.Errorf("reasons (-want +got):\n%s", diff)
	}
	if c, _ := checkOf(a, "result-period"); c.Ran != 2 || c.Of != 2 {
		t.Errorf("result-period = %+v", c)
	}
	// One write for the batch.
	for _, c := range res.Record.Log.Commits {
		if c.StageID == "sf-results" && len(c.Ops) > 1 {
			t.Errorf("the batch was written in %d ops", len(c.Ops))
		}
	}
	checkPeriodEvents(t, log)
}

func TestResultsLayerS15InProgress(t *testing.T) {
	led := must(coverage.Wrap([]any{1}, coverage.LedgerDecl{Checked: []coverage.Item{{What: "the 02:00 export"}},
		InProgress: []coverage.InProgressItem{{What: "sessions syncing", Count: 96, Why: "since 08:10"}}, Period: &rlFresh}))
	res, p, _ := runResults(t, []scripted.Reply{oneCall("c1"), {Content: "Backups are fine."}},
		[]*tool.Tool{queueTool(t, "backup_runs", led)}, agent.WithResultsLayer(), agent.WithLimitsBlock())
	if !strings.Contains(toolMessages(p.Requests()[1].Messages)[0], jsonEscape(engine.InProgressClause)+`"`) {
		t.Error("the served note does not end with the in-progress clause")
	}
	if !strings.HasSuffix(res.Answer, "In progress (still running when read; the outcome is not known yet):\n- backup_runs: sessions syncing (96) — since 08:10") {
		t.Errorf("answer:\n%s", res.Answer)
	}
	if a := res.Assessment; a.Standing != "consistent" || len(a.Reasons) != 0 {
		t.Errorf("in-progress work changed the standing: %s %v", a.Standing, reasonNames(a))
	}
}

func TestResultsLayerS17Overflow(t *testing.T) {
	var results []any
	for c := 0; c < 2; c++ {
		var items []coverage.Item
		for i := 0; i < 7; i++ {
			items = append(items, coverage.Item{What: fmt.Sprintf("shard %02d", c*7+i)})
		}
		if c == 1 {
			items = append(items, coverage.Item{What: "shard 00"})
		}
		results = append(results, must(coverage.Wrap([]any{1}, coverage.LedgerDecl{Checked: items})))
	}
	res, _, _ := runResults(t, []scripted.Reply{oneCall("c1"), oneCall("c2"), {Content: "Fine."}},
		[]*tool.Tool{queueTool(t, "backup_runs", results...)}, agent.WithLimitsBlock())
	_, block, _ := strings.Cut(res.Answer, "Checked:\n")
	lines := strings.Split(block, "\n")
	if len(lines) != 13 || !strings.HasPrefix(lines[12], "- … 2 ") {
		t.Errorf("want 12 bullets and an overflow bullet counting 2:\n%s", res.Answer)
	}
	if strings.Count(res.Answer, "- shard 00\n") != 1 {
		t.Error("the duplicate printed twice")
	}
	// Limits alone arm no results layer.
	if res.Record.Findings() != nil {
		t.Error("WithLimitsBlock alone filed findings")
	}
}

func TestResultsLayerS6PeriodToolArmsItself(t *testing.T) {
	type in struct {
		Window string `json:"window,omitempty" jsonschema:"how far back to look, such as 2h"`
	}
	search := must(tool.New("search_logs", "Search the error logs.",
		func(ctx context.Context, _ in) ([]string, error) { return []string{}, nil },
		tool.WithAskOrAssume(map[string]tool.Rule{"window": {Assume: "2h"}}),
		tool.WithPeriod(tool.Period{Argument: "window", Spelling: tool.SpellingLookback})))
	// No WithResultsLayer(): the period declaration arms it. The model leaves window out.
	res, _, log := runResults(t, []scripted.Reply{{ToolCalls: []llm.ToolCall{call("s1", "search_logs", `{}`)}}, {Content: "No errors."}},
		[]*tool.Tool{search})
	rows := rowsJSON(t, res)
	if len(rows) != 2 || !strings.Contains(rows[0], `"kind":"argument"`) || !strings.Contains(rows[0], `"source":"default"`) || !strings.Contains(rows[0], `"period":true`) {
		t.Fatalf("rows = %v, want the argument row (source default, period true) first", rows)
	}
	if want := `{"kind":"period","turn":1,"toolCallId":"s1","toolName":"search_logs","iteration":1,"verdict":"undeclared","argument":"window"}`; rows[1] != want {
		t.Errorf("period row %s, want %s", rows[1], want)
	}
	a := res.Assessment
	if diff := cmp.Diff([]string{"argument-assumed", "empty-undeclared", "period-undeclared"}, reasonNames(a)); diff != "" {
		t.Errorf("reasons (-want +got):\n%s", diff)
	}
	last := a.Reasons[len(a.Reasons)-1]
	if got := []string{last.Witness[0].Path, last.Witness[1].Path}; !cmp.Equal(got, []string{"/1/verdict", "/0/argument"}) {
		t.Errorf("period-undeclared witnesses %v, want the verdict then the joined argument", got)
	}
	checkPeriodEvents(t, log)
}

func TestResultsLayerPauseMidBatch(t *testing.T) {
	p := scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{call("c1", "backup_runs", `{}`), call("c2", "ask_approval", `{"action":"rerun backups"}`)}},
		scripted.Reply{Content: "Rerun approved."},
	)
	a := must(agent.New(p, agent.WithTools(queueTool(t, "backup_runs", s1Absent(t, rlStale)), approvalTool(t, nil)), agent.WithResultsLayer()))
	var log eventLog
	log.on(a)
	conv := a.NewConversation()
	res := must(conv.Send(context.Background(), agent.Input{Message: "rerun?"}))
	if !res.Paused {
		t.Fatal("not paused")
	}
	if n := len(log.of(event.FindingsPeriod)); n != 0 {
		t.Errorf("a half batch was judged: %d rows", n)
	}
	back := reload(t, a, conv)
	done := must(back.Resume(context.Background(), json.RawMessage(`"yes"`)))
	want := []string{`{"kind":"period","turn":1,"toolCallId":"c1","toolName":"backup_runs","iteration":1,"verdict":"not-held"}`}
	if diff := cmp.Diff(want, rowsJSON(t, done)); diff != "" {
		t.Errorf("rows after resume (-want +got):\n%s", diff)
	}
	if n := len(log.of(event.FindingsPeriod)); n != 1 {
		t.Errorf("findings.period fired %d times across the pause", n)
	}
}

func TestResultsLayerCheckpointDoor(t *testing.T) {
	p := scripted.New(scripted.Reply{Content: "ok"})
	a := must(agent.New(p, agent.WithResultsLayer()))
	conv := a.NewConversation()
	must(conv.Send(context.Background(), agent.Input{Message: "hi"}))
	cv := checkpointOf(t, conv)
	cv.FindingsLedger = json.RawMessage(`[{"kind":"period","turn":1,"toolCallId":"c1","toolName":"backup_runs","iteration":1,"verdict":"not-held"},` +
		`{"kind":"period","turn":1,"toolCallId":"c2","toolName":"backup_runs","iteration":1,"verdict":"fine"}]`)
	data := must(json.Marshal(cv))
	back, err := a.LoadConversation(data)
	var ce *agent.CheckpointError
	if back != nil || !errors.As(err, &ce) || ce.Field != "findingsLedger[1]" || !strings.Contains(err.Error(), `"period"`) {
		t.Errorf("tampered ledger: err = %v, want a findingsLedger refusal naming row 1", err)
	}
	// The refusal loses nothing: the conversation it came from keeps its
	// history and takes its next turn (which reaches the spent script).
	if n := len(conv.History()); n != 2 {
		t.Errorf("the original conversation holds %d messages, want 2", n)
	}
	_, err = conv.Send(context.Background(), agent.Input{Message: "again"})
	var se *scripted.ScriptExhaustedError
	if !errors.As(err, &se) || se.Call != 2 {
		t.Errorf("the original conversation's next turn: %v, want the second model call", err)
	}
}

// BenchmarkResultsLayerIteration is one tool-calling iteration whose result
// declares a stale period, then the answer, with the results layer armed and
// unarmed (the ratio is reported in docs/PERFORMANCE.md).
func BenchmarkResultsLayerIteration(b *testing.B) {
	abs := s1Absent(b, rlStale)
	for _, bc := range []struct {
		name string
		opts []agent.Option
	}{
		{"unarmed", nil},
		{"armed", []agent.Option{agent.WithResultsLayer()}},
		{"armed+limits", []agent.Option{agent.WithResultsLayer(), agent.WithLimitsBlock()}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			p := scripted.New(oneCall("c1"), scripted.Reply{Content: "No failures."})
			tl := must(tool.NewRaw("backup_runs", "Read backup runs.", json.RawMessage(`{"type":"object"}`),
				func(ctx context.Context, args json.RawMessage) (any, error) { return abs, nil }))
			a := must(agent.New(p, append([]agent.Option{agent.WithTools(tl)}, bc.opts...)...))
			ctx := context.Background()
			b.ReportAllocs()
			cpu0 := agenttest.CPUTime()
			for b.Loop() {
				p.Reset()
				if _, err := a.Run(ctx, agent.Input{Message: "Any failed backups?"}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((agenttest.CPUTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/op")
		})
	}
}

func TestResultsLayerS8RefusedDeclaration(t *testing.T) {
	bad := coverage.Period{Queried: coverage.Span{From: "yesterday", To: "2026-09-26T10:00:00Z"}, Held: coverage.Held{Unknown: true}}
	tl := must(tool.NewRaw("backup_runs", "Read backup runs.", json.RawMessage(`{"type":"object"}`),
		func(ctx context.Context, args json.RawMessage) (any, error) {
			return coverage.Absent(coverage.AbsenceDecl{What: "failed runs", Checked: []coverage.Item{{What: "the export"}}, Period: &bad})
		}))
	res, p, log := runResults(t, []scripted.Reply{oneCall("c1"), {Content: "I could not read the runs."}}, []*tool.Tool{tl}, agent.WithResultsLayer())
	if pl := log.of(event.ToolsResult)[0].Payload.(event.ToolsResultPayload); !pl.Error || pl.Status != "invalid" {
		t.Errorf("tools.result = %+v, want an error with status invalid", pl)
	}
	msg := toolMessages(p.Requests()[1].Messages)[0]
	if !strings.HasPrefix(msg, "c1:"+wire.RefusedPrefix) || !strings.Contains(msg, "`period.queried.from`") {
		t.Errorf("served %q: want a refusal naming period.queried.from", msg)
	}
	if cd, _ := finalState(t, res, "coverageDeclared"); len(cd.([]coverage.DeclaredCoverage)) != 0 {
		t.Errorf("a refused declaration filed a coverage row")
	}
	if len(res.Record.Findings()) != 0 || res.Answer != "I could not read the runs." {
		t.Errorf("rows %v, answer %q", rowsJSON(t, res), res.Answer)
	}
}

func TestResultsLayerS9ForeignMalformedPeriod(t *testing.T) {
	foreign := map[string]any{"af_absent": true, "looked_for": "failed runs", "checked": []any{map[string]any{"what": "the export"}},
		"period": map[string]any{"queried": map[string]any{"from": "2026-09-26T09:00:00Z", "to": "2026-09-26T10:00:00Z"}, "held": "sometimes"}}
	res, p, log := runResults(t, []scripted.Reply{oneCall("c1"), {Content: "Nothing found."}},
		[]*tool.Tool{queueTool(t, "backup_runs", foreign)}, agent.WithResultsLayer())
	if pl := log.of(event.ToolsResult)[0].Payload.(event.ToolsResultPayload); pl.Status != "absent" {
		t.Errorf("status %q, want absent", pl.Status)
	}
	cd, _ := finalState(t, res, "coverageDeclared")
	if rows := cd.([]coverage.DeclaredCoverage); len(rows) != 1 || rows[0].Period != nil {
		t.Errorf("coverageDeclared = %s: want one row without the malformed period", mustJSON(t, rows))
	}
	if !strings.Contains(toolMessages(p.Requests()[1].Messages)[0], `"held":"sometimes"`) {
		t.Error("the foreign value was not served as written")
	}
	if len(res.Record.Findings()) != 0 {
		t.Errorf("a malformed period filed a row: %v", rowsJSON(t, res))
	}
}

func TestResultsLayerLedgerSurvivesAModelFailure(t *testing.T) {
	p := scripted.New(oneCall("c1"), scripted.Reply{Err: &llm.Error{Provider: "scripted", Kind: llm.KindRateLimit, Resumable: true, Message: "slow down"}})
	a := must(agent.New(p, agent.WithTools(queueTool(t, "backup_runs", s1Absent(t, rlStale))), agent.WithResultsLayer()))
	_, err := a.Run(context.Background(), agent.Input{Message: "backups?"})
	var rce *agent.RunCheckpointError
	if !errors.As(err, &rce) {
		t.Fatalf("err = %v, want a RunCheckpointError", err)
	}
	want := `[{"kind":"period","turn":1,"toolCallId":"c1","toolName":"backup_runs","iteration":1,"verdict":"not-held"}]`
	if got := string(decodeCheckpoint(t, rce.Checkpoint).FindingsLedger); got != want {
		t.Errorf("the failed run's checkpoint carries ledger %s, want %s", got, want)
	}
}

// captureWarnings returns the option that sends an agent's developer
// warnings to a buffer, and the buffer.
func captureWarnings(t *testing.T) (*strings.Builder, agent.Option) {
	t.Helper()
	var buf strings.Builder
	var mu sync.Mutex
	l := slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return buf.Write(p)
	}), &slog.HandlerOptions{ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey && len(groups) == 0 {
			return slog.Attr{} // the handler's own clock, not the warning's content
		}
		return a
	}}))
	return &buf, agent.WithLogger(l)
}

type writerFunc func(p []byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func TestResultsLayerS13DevWarningOnce(t *testing.T) {
	buf, logTo := captureWarnings(t)
	// Unarmed: the period is recorded and served, and one warning says it is not judged.
	name := "backup_runs"
	named := func(id string) scripted.Reply { return scripted.Reply{ToolCalls: []llm.ToolCall{call(id, name, `{}`)}} }
	res, _, _ := runResults(t, []scripted.Reply{named("c1"), named("c2"), {Content: "No failures."}},
		[]*tool.Tool{queueTool(t, name, s1Absent(t, rlStale), s1Absent(t, rlStale))}, logTo)
	if n := strings.Count(buf.String(), "results layer is off"); n != 1 {
		t.Errorf("got %d warnings, want exactly one:\n%s", n, buf.String())
	}
	if !strings.Contains(buf.String(), "tool="+name) || instantRE.MatchString(buf.String()) {
		t.Errorf("the warning must name the tool and carry no value:\n%s", buf.String())
	}
	if res.Record.Findings() != nil {
		t.Error("an unarmed run filed findings")
	}
	// Armed: no warning.
	buf.Reset()
	armedName := name + "_armed"
	runResults(t, []scripted.Reply{{ToolCalls: []llm.ToolCall{call("c1", armedName, `{}`)}}, {Content: "No failures."}},
		[]*tool.Tool{queueTool(t, armedName, s1Absent(t, rlStale))}, agent.WithResultsLayer(), logTo)
	// Without a logger nothing is said at all.
	buf.Reset()
	runResults(t, []scripted.Reply{named("c1"), {Content: "No failures."}}, []*tool.Tool{queueTool(t, name, s1Absent(t, rlStale))})
	if buf.Len() != 0 {
		t.Errorf("an agent without WithLogger warned:\n%s", buf.String())
	}
	if strings.Contains(buf.String(), "results layer is off") {
		t.Errorf("an armed run warned:\n%s", buf.String())
	}
}

// TestRecordFindingsSurviveDecoding: a stored record's findings (read from
// its JSON) are the live record's typed rows.
func TestRecordFindingsSurviveDecoding(t *testing.T) {
	res, _, _ := runResults(t, []scripted.Reply{oneCall("c1"), {Content: "No failures."}},
		[]*tool.Tool{queueTool(t, "backup_runs", s1Absent(t, rlStale))}, agent.WithResultsLayer())
	live := res.Record.Findings()
	if len(live) == 0 {
		t.Fatal("the live record has no findings")
	}
	b, err := json.Marshal(res.Record)
	if err != nil {
		t.Fatal(err)
	}
	back, err := record.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	lj, _ := json.Marshal(live)
	bj, _ := json.Marshal(back.Findings())
	if diff := cmp.Diff(string(lj), string(bj)); diff != "" {
		t.Errorf("decoded findings (-live +decoded):\n%s", diff)
	}
	if got := (&record.Record{}).Findings(); got != nil {
		t.Errorf("an empty record's findings = %v, want nil", got)
	}
}
