package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/scenario"
)

// normalise replaces what differs between two runs of the same scenario: run ids, wall
// clocks, durations, and the absolute path of the source files units were defined in.
func normalise(s string) string {
	for _, r := range []struct{ re, with string }{
		{`run-[0-9a-f]{16}`, "run-ID"},
		{`"(startedAt|endedAt|checkpointedAt|pausedAt)":"[^"]*"`, `"$1":"TIME"`},
		{`"(wallClockMs|runOffsetMs|durationMs|pausedDurationMs|pausedToolStartMs)":\d+`, `"$1":0`},
		{`"file":"[^"]*/([^"/]+)"`, `"file":"$1"`},
	} {
		s = regexp.MustCompile(r.re).ReplaceAllString(s, r.with)
	}
	return s
}

func TestDemoGolden(t *testing.T) {
	store := filepath.Join(t.TempDir(), "runs.db")
	out, errText, code := runCLI(t, "", "demo", "--store", store)
	if code != 0 || errText != "" {
		t.Fatalf("exit %d, stderr %s", code, errText)
	}
	out = normalise(strings.ReplaceAll(out, store, "STORE"))
	for _, want := range []string{
		"Question: Checkout is throwing errors",
		"  called service_status {\"service\":\"checkout\"}",
		"  called search_logs {\"service\":\"checkout\",\"query\":\"error\",\"lookback\":\"1h\"}",
		`"verdict": "not-held"`,
		"Answer: Checkout has been degraded since 09:04 UTC",
		"input seed#0 sf-results#1 context#6 call-llm#7 sf-route#8 tool-calls#9",
		"Standing: not-sure (coverage-gap, period-not-held)",
		"What this answer rests on",
		"=== Part 2 of 2: a look-back the tool clamped ===",
		"- search_logs read less than was asked — asked: 2026-09-09 08:40:00–2026-10-09 08:39:59",
		"Standing: not-sure (argument-unverified, period-differs-from-asked)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q", want)
		}
	}
	goldenCLI(t, "testdata/demo/demo.golden", out)
}

func TestDemoJSONGolden(t *testing.T) {
	out, errText, code := runCLI(t, "", "demo", "--json")
	if code != 0 || errText != "" {
		t.Fatalf("exit %d, stderr %s", code, errText)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &top); err != nil {
		t.Fatalf("not one JSON object: %v", err)
	}
	for _, k := range []string{"answer", "ledger", "coverageDeclared", "toolMessages", "events", "record"} {
		if _, ok := top[k]; !ok {
			t.Errorf("no %q key", k)
		}
	}
	var tm []struct{ ToolName, Content string }
	if err := json.Unmarshal(top["toolMessages"], &tm); err != nil || len(tm) != 3 || tm[2].ToolName != "search_logs" || !strings.Contains(tm[2].Content, `"verdict":"not-held"`) {
		t.Errorf("toolMessages %v %+v", err, tm)
	}
	// Two runs differ only in what normalise replaces.
	again, _, _ := runCLI(t, "", "demo", "--json")
	if normalise(out) != normalise(again) {
		t.Error("two demo runs differ beyond ids and clocks")
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, []byte(normalise(out)), "", "  "); err != nil {
		t.Fatal(err)
	}
	goldenCLI(t, "testdata/demo/demo.json.golden", pretty.String()+"\n")
}

// The demo is a scenario file users can copy: --scenario prints it, and running the
// printed file gives the same run.
func TestDemoScenarioIsAFile(t *testing.T) {
	file, _, code := runCLI(t, "", "demo", "--scenario")
	if code != 0 || file != string(scenario.DemoFile()) {
		t.Fatalf("exit %d, printed file differs from the embedded one", code)
	}
	viaFile, errText, code := runCLI(t, file, "scenario", "run", "--json", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errText)
	}
	demo, _, _ := runCLI(t, "", "demo", "--json")
	if normalise(viaFile) != normalise(demo) {
		t.Error("scenario run of the printed file differs from demo --json")
	}
}

func TestScenarioRunText(t *testing.T) {
	out, errText, code := runCLI(t, "", "scenario", "run", "../../scenario/testdata/valid/pause-followup.json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errText)
	}
	for _, want := range []string{
		"Question: Restart checkout if the operator agrees.",
		"  ask_approval served: yes, go ahead",
		"Person: Did it work?",
		"Answer: Yes: the restart finished at 10:02 UTC.",
		"Tool results as served (2)",
		"  2. restart r1 [success]: checkout restarted at 10:02 UTC",
		"  pause.request ",
		"Record (agentfootprint-go.record/1): run run-",
		"Expectations: all met",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestScenarioRunExitStatus(t *testing.T) {
	cases := []struct {
		file string
		code int
	}{
		{"bad-status.json", exitBadFile},
		{"bad-syntax.json", exitBadFile},
		{"bad-zone.json", exitBadFile},
		{"bad-turn.json", exitBadFile},
		{"expect-fails.json", exitMismatch},
		{"script-runs-out.json", exitRunFailed},
		{"missing.json", exitBadFile},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			path := filepath.Join("testdata", "scenario", c.file)
			out, errText, code := runCLI(t, "", "scenario", "run", path)
			if code != c.code {
				t.Fatalf("exit %d, want %d; stderr %s", code, c.code, errText)
			}
			if c.code == exitBadFile && c.file != "bad-turn.json" && out != "" {
				t.Errorf("a malformed file printed a run: %s", out)
			}
			// The same status with --json; standard error is the same.
			_, errJSON, codeJSON := runCLI(t, "", "scenario", "run", "--json", path)
			if codeJSON != code || errJSON != errText {
				t.Errorf("--json: exit %d, stderr %q", codeJSON, errJSON)
			}
			goldenCLI(t, strings.TrimSuffix(path, ".json")+".stderr.golden", normalise(errText))
		})
	}
}

func TestScenarioValidateAndSchema(t *testing.T) {
	out, errText, code := runCLI(t, "", "scenario", "validate", "../../scenario/examples/ops-triage.json")
	if code != 0 || out != "ops-triage: ok\n" {
		t.Errorf("validate: exit %d, %q %q", code, out, errText)
	}
	_, errText, code = runCLI(t, "", "scenario", "validate", "testdata/scenario/bad-status.json")
	if code != exitBadFile || !strings.Contains(errText, `tools[1].results[0].status: unknown status "sucess" (did you mean "success"?)`) {
		t.Errorf("validate bad: exit %d, %q", code, errText)
	}
	out, _, code = runCLI(t, "", "scenario", "schema")
	if code != 0 || out != string(scenario.Schema()) || !json.Valid([]byte(out)) {
		t.Errorf("schema: exit %d", code)
	}
}
