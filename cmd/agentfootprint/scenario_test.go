package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent/record"
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
		"Standing: not-sure — at least one reason below holds",
		"  - coverage-gap: a tool declared ground it did not check or cannot see",
		"  - period-not-held: the source holds none of the time the tool searched",
		"  - results for an empty answer nobody declared: could read 1 of 3",
		"What this answer rests on",
		"=== Part 2 of 2: a look-back the tool clamped ===",
		"- search_logs read less than was asked — asked: 2026-09-09 08:40:00–2026-10-09 08:40:00",
		"  - period-differs-from-asked: the time the tool read is not the time the question asked about",
		`Why "covered" and "not sure" at once: the verdict beside the tool's result judges what it`,
		"How windows are printed: A–B runs from A up to B, the moment the window stops.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q", want)
		}
	}
	// Stage ids and check names are for --verbose and the docs, not the first read.
	for _, internal := range []string{"seed#0", "call-llm#", "checked result-shape", "ran on 0 of 1"} {
		if strings.Contains(out, internal) {
			t.Errorf("demo output shows the internal %q", internal)
		}
	}
	// Part 1 has no covered read: the covered-and-not-sure paragraph belongs to part 2 only.
	if strings.Count(out, `Why "covered" and "not sure"`) != 1 {
		t.Errorf("the covered-and-not-sure paragraph is printed %d times", strings.Count(out, `Why "covered" and "not sure"`))
	}
	goldenCLI(t, "testdata/demo/demo.golden", out)

	verbose, _, code := runCLI(t, "", "demo", "--part", "1", "--no-store", "--verbose")
	if code != 0 || !strings.Contains(verbose, "The steps by stage id, in order:\n  input seed#0 sf-results#1 context#6 call-llm#7 sf-route#8 tool-calls#9") {
		t.Errorf("--verbose: exit %d, no stage ids:\n%s", code, verbose)
	}
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
	// The printed copy carries no "$schema": the embedded file's relative reference would
	// resolve to nothing where the copy lands. Everything else is the embedded file.
	embedded := strings.Replace(string(scenario.DemoFile()), "  \"$schema\": \"../scenario.schema.json\",\n", "", 1)
	if code != 0 || file != embedded || strings.Contains(file, "$schema") || embedded == string(scenario.DemoFile()) {
		t.Fatalf("exit %d, printed file differs from the embedded one without its $schema line", code)
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
		"Record (" + record.Format + "): run run-",
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
