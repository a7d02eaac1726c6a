// This file checks that explain reads a run by id from the store, as demo's printed command does.

package main

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestExplainStoredDemoRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.db")
	out, errText, code := runCLI(t, "", "demo", "--part", "1", "--store", path)
	if code != 0 {
		t.Fatalf("demo: exit %d: %s", code, errText)
	}
	m := regexp.MustCompile(`agentfootprint explain (run-[0-9a-f]{16}) --store (\S+)`).FindStringSubmatch(out)
	if m == nil || m[2] != path {
		t.Fatalf("demo printed no explain command for %s:\n%s", path, out)
	}
	text, errText, code := runCLI(t, "", "explain", m[1], "--store", path)
	if code != 0 {
		t.Fatalf("explain %s: exit %d: %s", m[1], code, errText)
	}
	if !strings.HasPrefix(text, "ANSWER   call-llm#") || !strings.Contains(text, "BORN") {
		t.Errorf("explain of the stored demo run does not walk back to a birth:\n%s", text)
	}
	js, _, code := runCLI(t, "", "explain", m[1], "--store", path, "--json")
	var chain struct {
		Format string `json:"format"`
	}
	if code != 0 || json.Unmarshal([]byte(js), &chain) != nil || chain.Format != "agentfootprint-go.backtrack/1" {
		t.Errorf("explain --json: exit %d, format %q", code, chain.Format)
	}
	_, errText, code = runCLI(t, "", "explain", "run-0000000000000000", "--store", path)
	if code == 0 || !strings.Contains(errText, `"run-0000000000000000"`) {
		t.Errorf("an unknown id: exit %d, stderr %q; want a refusal naming the id", code, errText)
	}
}

func TestAblateStoredDemoRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.db")
	out, errText, code := runCLI(t, "", "demo", "--part", "1", "--store", path)
	if code != 0 {
		t.Fatalf("demo: exit %d: %s", code, errText)
	}
	m := regexp.MustCompile(`agentfootprint explain (run-[0-9a-f]{16})`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("demo printed no run id:\n%s", out)
	}
	js, errText, code := runCLI(t, "", "ablate", m[1], "--store", path, "--without", "rollback-runbook", "--json")
	if code != 0 {
		t.Fatalf("ablate: exit %d: %s", code, errText)
	}
	var rep struct {
		Runs     int      `json:"runs"`
		Flags    []string `json:"flags"`
		Suspects []struct {
			ID      string `json:"id"`
			Verdict string `json:"verdict"`
			Flips   int    `json:"flips"`
			Samples int    `json:"samples"`
		} `json:"suspects"`
	}
	if err := json.Unmarshal([]byte(js), &rep); err != nil {
		t.Fatalf("ablate --json: %v\n%s", err, js)
	}
	// The scripted model ignores its context, so removing the unit changes nothing, and the
	// report must say the samples were identical rather than claim independence.
	if rep.Runs != 6 || len(rep.Suspects) != 1 || rep.Suspects[0].Verdict != "not-confirmed" ||
		rep.Suspects[0].Flips != 0 || rep.Suspects[0].Samples != 3 {
		t.Errorf("ablate report = %+v", rep)
	}
	if !strings.Contains(strings.Join(rep.Flags, ","), "samples-identical") {
		t.Errorf("flags %v lack samples-identical", rep.Flags)
	}
}

// Every suspect name explain prints is a name ablate takes: the top suspect of a backtrack
// can be tested by the name it was given, and an unknown name is refused with the list.
func TestAblateTakesTheNamesExplainPrints(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.db")
	out, errText, code := runCLI(t, "", "demo", "--part", "1", "--store", path)
	m := regexp.MustCompile(`agentfootprint explain (run-[0-9a-f]{16})`).FindStringSubmatch(out)
	if code != 0 || m == nil {
		t.Fatalf("demo: exit %d: %s", code, errText)
	}
	text, _, code := runCLI(t, "", "explain", m[1], "--store", path)
	names := regexp.MustCompile(`(?m)^#\d+ (\S+)`).FindAllStringSubmatch(text, -1)
	if code != 0 || len(names) < 3 {
		t.Fatalf("explain: exit %d, suspects %v:\n%s", code, names, text)
	}
	if !strings.Contains(text, "`agentfootprint ablate "+m[1]+" --without "+names[0][1]+"`") {
		t.Errorf("explain does not say how to ablate its top suspect:\n%s", text)
	}
	removable := 0
	for _, n := range names {
		name := n[1]
		rep, errText, code := runCLI(t, "", "ablate", m[1], "--store", path, "--without", name, "--samples", "2")
		if name == "unit:system-prompt" {
			// Added by an agent option, not a unit the blueprint lists: refused, with the list.
			if code != 2 || !strings.Contains(errText, "removable: ") {
				t.Errorf("%s: exit %d, %q", name, code, errText)
			}
			continue
		}
		if code != 0 || !strings.Contains(rep, name+": the answer did not change in any of 2 reruns") {
			t.Errorf("ablate --without %s: exit %d, stderr %q:\n%s", name, code, errText, rep)
		}
		removable++
	}
	if removable < 3 {
		t.Errorf("only %d of the printed names could be ablated", removable)
	}
	// The raw id of the chain's JSON is taken too, and reported under its name.
	rep, _, code := runCLI(t, "", "ablate", m[1], "--store", path, "--without", "history/4", "--samples", "2")
	if code != 0 || !strings.Contains(rep, "tool:recent_deploys (asked as history/4): the answer did not change") {
		t.Errorf("history/4: exit %d:\n%s", code, rep)
	}
	for _, bad := range []string{"history/99", "message:5", "unit:nothing"} {
		out, errText, code := runCLI(t, "", "ablate", m[1], "--store", path, "--without", bad)
		want := "agentfootprint ablate: " + bad + " names nothing this agent has; removable: unit:rollback-runbook, unit:empty-logs, tool:service_status, tool:recent_deploys, tool:search_logs\n"
		if code != 2 || out != "" || errText != want {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want %q", bad, code, out, errText, want)
		}
	}
}

// scenario run stores its run only when --store names a store, with the same pair of flags
// as demo, and the stored run reads back with show and explain.
func TestScenarioRunStore(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "part1.json")
	data, _, _ := runCLI(t, "", "demo", "--scenario")
	if err := os.WriteFile(file, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "runs.db")
	out, errText, code := runCLI(t, "", "scenario", "run", file)
	if code != 0 || strings.Contains(out, "Stored as run") {
		t.Fatalf("default: exit %d (%s), or it was stored:\n%s", code, errText, out)
	}
	if _, _, code := runCLI(t, "", "scenario", "run", file, "--store", db, "--no-store"); code != 0 {
		t.Fatalf("--no-store: exit %d", code)
	}
	if _, err := os.Stat(db); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("--no-store created %s", db)
	}
	out, errText, code = runCLI(t, "", "scenario", "run", file, "--store", db)
	m := regexp.MustCompile(`Stored as run (run-[0-9a-f]{16}) in ` + regexp.QuoteMeta(db)).FindStringSubmatch(out)
	if code != 0 || m == nil {
		t.Fatalf("--store: exit %d (%s):\n%s", code, errText, out)
	}
	if shown, _, code := runCLI(t, "", "show", m[1], "--store", db); code != 0 || !strings.Contains(shown, "Standing: not-sure") {
		t.Errorf("show of the stored scenario run: exit %d:\n%s", code, shown)
	}
	if text, _, code := runCLI(t, "", "explain", m[1], "--store", db); code != 0 || !strings.HasPrefix(text, "ANSWER ") {
		t.Errorf("explain of the stored scenario run: exit %d:\n%s", code, text)
	}
	// --json output stays one object: where it was stored is not appended to it.
	js, _, code := runCLI(t, "", "scenario", "run", file, "--store", db, "--json")
	var v map[string]any
	if code != 0 || json.Unmarshal([]byte(js), &v) != nil {
		t.Errorf("--json with --store: exit %d, not one JSON object", code)
	}
}

// What `show --json` writes is a file explain reads: the record inside it.
func TestExplainReadsShowJSON(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "runs.db")
	out, _, code := runCLI(t, "", "demo", "--part", "1", "--store", db)
	m := regexp.MustCompile(`Stored as run (run-[0-9a-f]{16})`).FindStringSubmatch(out)
	if code != 0 || m == nil {
		t.Fatalf("demo: exit %d", code)
	}
	shown, _, code := runCLI(t, "", "show", m[1], "--store", db, "--json")
	file := filepath.Join(dir, "shown.json")
	if code != 0 || os.WriteFile(file, []byte(shown), 0o600) != nil {
		t.Fatalf("show --json: exit %d", code)
	}
	fromFile, errText, code := runCLI(t, "", "explain", file)
	fromStore, _, _ := runCLI(t, "", "explain", m[1], "--store", db)
	// The last line names the lens command for where the run came from (a
	// file or a store), so it differs by design.
	noLens := func(s string) string {
		var keep []string
		for _, l := range strings.Split(s, "\n") {
			if !strings.Contains(l, "agentfootprint lens ") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	if code != 0 || !strings.HasPrefix(fromFile, "ANSWER ") || noLens(strings.ReplaceAll(fromFile, file, "X")) != noLens(strings.ReplaceAll(fromStore, m[1], "X")) {
		t.Errorf("explain of the show --json file: exit %d (%s):\n%s", code, errText, fromFile)
	}
}
