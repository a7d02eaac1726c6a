// End-to-end tests: scenario files run on the scripted model, with what each served and
// recorded checked value by value.

package scenario

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/google/go-cmp/cmp"
)

func runFile(t *testing.T, path string) *Report {
	t.Helper()
	rep, err := RunFile(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func served(rep *Report) []string {
	var out []string
	for _, m := range rep.ToolMessages {
		out = append(out, m.ToolCallID+" "+m.Content)
	}
	return out
}

func calls(rep *Report) []string {
	var out []string
	for _, c := range rep.ToolCalls {
		s := c.ID + " " + c.Name + " " + string(c.Status)
		if c.Error {
			s += " error"
		}
		out = append(out, s)
	}
	return out
}

func eventTypes(rep *Report) []string {
	var out []string
	for _, e := range rep.Events {
		out = append(out, strings.TrimPrefix(string(e.Type), "agentfootprint."))
	}
	return out
}

func TestRunFailuresGoOn(t *testing.T) {
	rep := runFile(t, "testdata/valid/failures.json")
	want := []string{
		`c1 The tool "flaky" failed: backend unreachable`,
		`c2 The tool "flaky" failed: tool "flaky" panicked: status backend exploded`,
		"c3 The flaky tool was not run: its arguments do not match its input schema (1 issue). Correct all of them and call it again.\n- /service: required expects string, got missing",
		`c4 There is no tool named "nope". The tools offered are: flaky.`,
		`c5 {"read":2,"of":3}`,
	}
	if d := cmp.Diff(want, served(rep)); d != "" {
		t.Errorf("served (-want +got):\n%s", d)
	}
	wantCalls := []string{"c1 flaky  error", "c2 flaky  error", "c3 flaky invalid error", "c4 nope  error", "c5 flaky partial"}
	if d := cmp.Diff(wantCalls, calls(rep)); d != "" {
		t.Errorf("calls (-want +got):\n%s", d)
	}
	if rep.Answer != "Two of three reads worked." || rep.Iterations != 2 {
		t.Errorf("answer %q after %d", rep.Answer, rep.Iterations)
	}
	if ms := rep.Check(); len(ms) != 0 {
		t.Errorf("mismatches: %v", ms)
	}
}

func TestRunMatchingAndCallOrder(t *testing.T) {
	rep := runFile(t, "testdata/valid/matching.json")
	got := served(rep)
	if len(got) != 5 {
		t.Fatalf("served %d: %v", len(got), got)
	}
	for i, want := range []string{
		"l1 fallback for the first unmatched id",
		"l2 order a: shipped",
		`l3 {"af_absent":true,"outcome":"nothing_found","looked_for":"order missing"`,
		"l4 No data was returned: the lookup result was 68 characters, over the tool's limit of 40 characters",
		`l5 The tool "lookup" failed: the scenario has no canned result for this call of lookup`,
	} {
		if !strings.HasPrefix(got[i], want) {
			t.Errorf("served[%d] = %q, want prefix %q", i, got[i], want)
		}
	}
	wantCalls := []string{"l1 lookup ", "l2 lookup ", "l3 find_order absent", "l4 lookup invalid", "l5 lookup  error"}
	if d := cmp.Diff(wantCalls, calls(rep)); d != "" {
		t.Errorf("calls (-want +got):\n%s", d)
	}
	if len(rep.CoverageDeclared) != 1 || rep.CoverageDeclared[0].Kind != "absence" || rep.CoverageDeclared[0].ToolCallID != "l3" || rep.CoverageDeclared[0].LookedFor != "order missing" {
		t.Errorf("coverage rows %+v", rep.CoverageDeclared)
	}
	want := []Mismatch{{Path: "tools[0].results", Problem: `a call of lookup with arguments {"id":"d"} found no canned result (2 in call order, 1 by arguments)`}}
	if d := cmp.Diff(want, rep.Check()); d != "" {
		t.Errorf("check (-want +got):\n%s", d)
	}
	// Running the same file again starts the call order afresh.
	again := runFile(t, "testdata/valid/matching.json")
	if d := cmp.Diff(served(rep), served(again)); d != "" {
		t.Errorf("second run differs:\n%s", d)
	}
}

func TestRunPauseResumeNextTurn(t *testing.T) {
	rep := runFile(t, "testdata/valid/pause-followup.json")
	if d := cmp.Diff([]string{"q1 yes, go ahead", "r1 checkout restarted at 10:02 UTC"}, served(rep)); d != "" {
		t.Errorf("served (-want +got):\n%s", d)
	}
	if len(rep.Turns) != 3 || !rep.Turns[0].Paused || rep.Turns[0].Pause == nil || rep.Turns[0].Pause.ToolName != "ask_approval" ||
		string(rep.Turns[1].Resume) != `"yes, go ahead"` || rep.Turns[1].Answer != "Checkout was restarted at 10:02 UTC." || rep.Turns[2].User != "Did it work?" {
		t.Errorf("turns %+v", rep.Turns)
	}
	if rep.Paused != nil || rep.Answer != "Yes: the restart finished at 10:02 UTC." {
		t.Errorf("paused %+v answer %q", rep.Paused, rep.Answer)
	}
	// Each event once: the paused leg's events come back in the resumed leg's record.
	types := eventTypes(rep)
	count := map[string]int{}
	for _, ty := range types {
		count[ty]++
	}
	if count["agent.turn_start"] != 2 || count["pause.request"] != 1 || count["pause.resume"] != 1 || count["agent.turn_end"] != 2 || count["tools.start"] != 2 {
		t.Errorf("event counts %v", count)
	}
	if ms := rep.Check(); len(ms) != 0 {
		t.Errorf("mismatches: %v", ms)
	}
	if len(rep.Transcript) != 8 {
		t.Errorf("transcript has %d messages", len(rep.Transcript))
	}
}

func TestRunWrapUp(t *testing.T) {
	rep := runFile(t, "testdata/valid/wrapup.json")
	if rep.Iterations != 3 || rep.Answer != "I ran out of steps; ping answered pong." {
		t.Errorf("iterations %d answer %q", rep.Iterations, rep.Answer)
	}
	if d := cmp.Diff([]string{"call_1 pong", "call_2 This call was not run: the step budget for this turn is spent."}, served(rep)); d != "" {
		t.Errorf("served (-want +got):\n%s", d)
	}
	var ids []string
	for _, c := range rep.Record.Log.Commits {
		ids = append(ids, c.RuntimeStageID)
	}
	if !strings.Contains(strings.Join(ids, " "), "sf-route#7 wrap-up#8") {
		t.Errorf("stages %v", ids)
	}
}

func TestRunDemo(t *testing.T) {
	f, err := Demo()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	if ms := rep.Check(); len(ms) != 0 {
		t.Fatalf("mismatches: %v", ms)
	}
	// The log search is served with its verdict word and clause: the store held none of
	// the hour asked about.
	logs := rep.ToolMessages[2].Content
	if !strings.Contains(logs, `"verdict":"not-held"`) || !strings.Contains(logs, "the store holds none of the time in `period.queried`") {
		t.Errorf("served logs lack the verdict clause: %s", logs)
	}
	// The results layer filed the verdict on the ledger and folded the standing.
	if rep.Standing == nil || rep.Standing.Standing != "not-sure" {
		t.Fatalf("standing %+v", rep.Standing)
	}
	if len(rep.Ledger) != 1 {
		t.Fatalf("ledger %v", rep.Ledger)
	}
	if row, ok := rep.Ledger[0].Period(); !ok || row.ToolCallID != "call_logs" || string(row.Verdict) != "not-held" {
		t.Errorf("ledger row %+v", rep.Ledger[0])
	}
	if !strings.Contains(rep.Answer, "search_logs queried 2026-09-26T09:00:00Z to 2026-09-26T10:00:00Z") {
		t.Errorf("the limits block is not on the answer: %s", rep.Answer)
	}
	// The record keeps the declaration without the served-only verdict.
	if len(rep.CoverageDeclared) != 1 || rep.CoverageDeclared[0].Period == nil || rep.CoverageDeclared[0].Period.Queried.From != "2026-09-26T09:00:00Z" {
		t.Errorf("coverage rows %+v", rep.CoverageDeclared)
	}
}

func TestRunRefusesImpossibleTurns(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"user while paused", `{"tools":[{"name":"ask","results":[{"pause":"ok?"}]}],
			"replies":[{"toolCalls":[{"id":"p","name":"ask"}]}],
			"turns":[{"user":"go"},{"user":"again"}]}`,
			`scenario: turns[1].user: the run is paused: tool ask (call p) waits for an answer; give {"resume": …} first`},
		{"resume with nothing paused", `{"replies":[{"content":"hi"}],"turns":[{"user":"go"},{"resume":"yes"}]}`,
			`scenario: turns[1].resume: nothing is paused: the turn before ended with an answer`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := Parse([]byte(c.in))
			if err != nil {
				t.Fatal(err)
			}
			rep, err := Run(context.Background(), f)
			var fe *FieldError
			if !errors.As(err, &fe) || err.Error() != c.want {
				t.Fatalf("got %v, want %s", err, c.want)
			}
			if rep == nil || len(rep.Turns) != 1 {
				t.Errorf("the report of the first turn is lost: %+v", rep)
			}
		})
	}
}

func TestRunScriptRunsOut(t *testing.T) {
	f, err := Parse([]byte(`{"tools":[{"name":"t","results":[{"value":1}]}],"replies":[{"toolCalls":[{"id":"a","name":"t"}]}],"turns":[{"user":"go"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), f)
	var re *RunError
	if !errors.As(err, &re) || re.Turn != "turns[0]" {
		t.Fatalf("got %v", err)
	}
	var ex *scripted.ScriptExhaustedError
	var ce *agent.RunCheckpointError
	if !errors.As(err, &ex) || !errors.As(err, &ce) {
		t.Errorf("cause %v", err)
	}
	if rep == nil || len(rep.ToolMessages) != 1 || rep.ToolMessages[0].Content != "1" {
		t.Errorf("the served call is lost: %+v", rep)
	}
}

func TestRunCancelled(t *testing.T) {
	f, err := Parse([]byte(`{"replies":[{"content":"late","delay":"10s"}],"turns":[{"user":"go"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Run(ctx, f)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got %v", err)
	}
}

func TestCheckMismatches(t *testing.T) {
	f, err := Parse([]byte(`{"tools":[{"name":"a","results":[{"value":"x","status":"success"}]},{"name":"b","results":[{"value":"y"}]}],
		"replies":[{"toolCalls":[{"id":"1","name":"a","args":{"k":1}},{"id":"2","name":"b"}]},{"content":"the end"}],
		"turns":[{"user":"go"}],
		"expect":{"answer":"an end","answerContains":["end","fin"],"toolCalls":[{"name":"a","args":{"k":2}},"c"],
		          "statuses":["failure",""],"iterations":3}}`))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	want := []Mismatch{
		{"expect.answer", `want "an end", got "the end"`},
		{"expect.answerContains[1]", `the answer does not contain "fin"`},
		{"expect.toolCalls[0].args", `want {"k":2}, got {"k":1}`},
		{"expect.toolCalls[1]", "want a call of c, got b"},
		{"expect.statuses[0]", `want "failure", got "success" (call 1 of a)`},
		{"expect.iterations", "want 3, got 2"},
	}
	if d := cmp.Diff(want, rep.Check()); d != "" {
		t.Errorf("check (-want +got):\n%s", d)
	}
	if got := want[0].String(); got != `expect.answer: want "an end", got "the end"` {
		t.Errorf("String %q", got)
	}
}

func TestReportJSONKeys(t *testing.T) {
	rep := runFile(t, "testdata/valid/matching.json")
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	var keys []string
	tok, _ := dec.Token()
	for dec.More() {
		k, _ := dec.Token()
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	_ = tok
	if d := cmp.Diff([]string{"answer", "ledger", "coverageDeclared", "toolMessages", "events", "record"}, keys); d != "" {
		t.Errorf("keys (-want +got):\n%s", d)
	}
	var out struct {
		Ledger       []any `json:"ledger"`
		ToolMessages []struct {
			ToolCallID, ToolName, Content string
		} `json:"toolMessages"`
		Events []map[string]json.RawMessage `json:"events"`
		Record map[string]json.RawMessage   `json:"record"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if out.Ledger == nil || len(out.Ledger) != 0 || len(out.ToolMessages) != 5 || out.ToolMessages[1].Content != "order a: shipped" {
		t.Errorf("decoded %+v", out)
	}
	for _, e := range out.Events {
		if len(e) != 2 || e["type"] == nil || e["payload"] == nil {
			t.Fatalf("event keys %v", e)
		}
	}
	if string(out.Record["format"]) != `"`+record.Format+`"` {
		t.Errorf("record format %s", out.Record["format"])
	}
	if _, err := record.Decode(mustRaw(t, out.Record)); err != nil {
		t.Errorf("the record does not decode: %v", err)
	}
}

func mustRaw(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// One File runs from several goroutines at once; each run has its own call order.
func TestRunConcurrently(t *testing.T) {
	f, err := Load("testdata/valid/matching.json")
	if err != nil {
		t.Fatal(err)
	}
	const n = 4
	reps := make([]*Report, n)
	errs := make([]error, n)
	done := make(chan int)
	for i := range n {
		go func() {
			reps[i], errs[i] = Run(context.Background(), f)
			done <- i
		}()
	}
	for range n {
		<-done
	}
	for i := range n {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if d := cmp.Diff(served(reps[0]), served(reps[i])); d != "" {
			t.Errorf("run %d differs:\n%s", i, d)
		}
	}
}

// Parse keeps nothing of its input: changing the bytes afterwards changes nothing.
func TestParseKeepsNoInput(t *testing.T) {
	data := DemoFile()
	f, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	for i := range data {
		data[i] = ' '
	}
	rep, err := Run(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	if ms := rep.Check(); len(ms) != 0 || f.Name() != "ops-triage" {
		t.Errorf("mismatches after the input changed: %v", ms)
	}
}

func TestCheckStanding(t *testing.T) {
	cases := []struct {
		name, agent, expect string
		want                []Mismatch
	}{
		{"unarmed", `{}`, `{"standing":"known"}`,
			[]Mismatch{{"expect.standing", `the run has no standing: arm the results layer with "agent": {"resultsLayer": true}`}}},
		{"armed, other word", `{"resultsLayer":true}`, `{"standing":"not-sure","reasons":["period-not-held"]}`,
			[]Mismatch{{"expect.standing", `want "not-sure", got "not-assessed"`}, {"expect.reasons", `want ["period-not-held"], got []`}}},
		{"armed, holds", `{"resultsLayer":true}`, `{"standing":"not-assessed","reasons":[]}`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := Parse([]byte(`{"agent":` + c.agent + `,"replies":[{"content":"All is well."}],"turns":[{"user":"How is it?"}],"expect":` + c.expect + `}`))
			if err != nil {
				t.Fatal(err)
			}
			rep, err := Run(context.Background(), f)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(c.want, rep.Check()); d != "" {
				t.Errorf("check (-want +got):\n%s", d)
			}
		})
	}
}

// The time and inputs layers from a file: the assumed window is filed as the tool's default,
// the run's clock is the file's now, and the period row joins the call.
func TestRunTimeAndInputs(t *testing.T) {
	rep := runFile(t, "testdata/valid/time-window.json")
	var kinds []string
	for _, r := range rep.Ledger {
		kinds = append(kinds, r.Kind())
	}
	if d := cmp.Diff([]string{"clock", "argument", "call-window", "call", "period"}, kinds); d != "" {
		t.Errorf("ledger kinds (-want +got):\n%s", d)
	}
	b, err := json.Marshal(rep.Ledger)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"now":"2026-09-26T10:00:00Z","nowSource":"app","zone":"Europe/Oslo"`, `"argument":"window","rule":"assume","period":true,"source":"default","value":"1h"`, `"verdict":"covered","argument":"window"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("ledger lacks %s:\n%s", want, b)
		}
	}
	if ms := rep.Check(); len(ms) != 0 {
		t.Errorf("mismatches: %v", ms)
	}
}

// agent.time.window reaches the run's clock as the window the person set in the app.
func TestRunTimeWindow(t *testing.T) {
	data, err := os.ReadFile("testdata/valid/time-window.json")
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.Replace(data, []byte(`"now": "2026-09-26T10:00:00Z"}`),
		[]byte(`"now": "2026-09-26T10:00:00Z", "window": {"from": "2026-09-26T08:00:00Z", "to": "2026-09-26T10:00:00Z"}}`), 1)
	f, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(rep.Ledger)
	if err != nil {
		t.Fatal(err)
	}
	if want := `"window":{"from":"2026-09-26T08:00:00Z","to":"2026-09-26T10:00:00Z","source":"control"}`; !strings.Contains(string(b), want) {
		t.Errorf("the clock row lacks %s:\n%s", want, b)
	}
}
