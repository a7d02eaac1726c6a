package main

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/store"
	"github.com/google/go-cmp/cmp"
)

// scrubRun replaces what differs between two runs of the same script: run ids, instants
// and store paths.
func scrubRun(s string, storePath string) string {
	s = strings.ReplaceAll(s, storePath, "STORE")
	s = regexp.MustCompile(`run-[0-9a-f]{16}`).ReplaceAllString(s, "run-ID")
	s = regexp.MustCompile(`\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(\.\d+)?Z?`).ReplaceAllString(s, "TIME")
	return s
}

func TestRunsEmptyStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.db")
	out, errText, code := runCLI(t, "", "runs", "--store", path)
	if code != 0 || out != "No runs in "+path+" yet; `agentfootprint demo` stores one.\n" {
		t.Errorf("exit %d, out %q, stderr %q", code, out, errText)
	}
	out, _, code = runCLI(t, "", "runs", "--store", path, "--json")
	if code != 0 || out != "[]\n" {
		t.Errorf("--json on an empty store: exit %d, %q", code, out)
	}
}

func TestRunsList(t *testing.T) {
	path, results := storedRuns(t, "Checkout is degraded since 09:04 UTC.\nRoll back v412.", "Checkout is healthy.")
	out, errText, code := runCLI(t, "", "runs", "--store", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errText)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "RUN ") {
		t.Fatalf("want a header and two runs:\n%s", out)
	}
	// Newest first; the answer is put on one line.
	for i, want := range []struct{ id, answer string }{
		{results[1].RunID, "Checkout is healthy."},
		{results[0].RunID, "Checkout is degraded since 09:04 UTC. Roll back v412."},
	} {
		f := lines[i+1]
		if !strings.HasPrefix(f, want.id+" ") || !strings.Contains(f, " complete ") || !strings.HasSuffix(f, want.answer) {
			t.Errorf("line %d = %q, want run %s complete %q", i+1, f, want.id, want.answer)
		}
	}

	out, _, code = runCLI(t, "", "runs", "--store", path, "--json", "--limit", "1")
	var infos []store.RunInfo
	if err := json.Unmarshal([]byte(out), &infos); err != nil || code != 0 {
		t.Fatalf("--json: exit %d, %v: %s", code, err, out)
	}
	if len(infos) != 1 || infos[0].ID != results[1].RunID || infos[0].AgentID != "cli-triage" || infos[0].Status != store.StatusComplete {
		t.Errorf("--limit 1 --json = %+v", infos)
	}

	_, errText, code = runCLI(t, "", "runs", "--store", path, "--limit", "-1")
	if code != 2 || !strings.Contains(errText, "--limit -1") {
		t.Errorf("negative limit: exit %d, %q", code, errText)
	}
}

func TestShow(t *testing.T) {
	path, results := storedRuns(t, "Checkout is degraded since 09:04 UTC.\nRoll back v412.")
	id := results[0].RunID
	out, errText, code := runCLI(t, "", "show", id, "--store", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errText)
	}
	for _, want := range []string{
		"Run " + id + " (complete)",
		"  tools    service_status",
		"  input seed#0 context#1 call-llm#2 sf-route#3 tool-calls#4 context#5 call-llm#6",
		`  1. service_status {"service":"checkout"}  [call_1, tool-calls#4]`,
		"     served: checkout is degraded since 09:04 UTC",
		"Answer:\n  Checkout is degraded since 09:04 UTC.\n  Roll back v412.\n",
		"agentfootprint explain " + id,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("show lacks %q", want)
		}
	}
	goldenCLI(t, "testdata/runs/show.golden", scrubRun(out, path))

	// --json prints the record as saved, blobs put back.
	out, _, code = runCLI(t, "", "show", id, "--store", path, "--json")
	want, _ := json.Marshal(results[0].Record())
	if code != 0 {
		t.Fatalf("--json exit %d", code)
	}
	if d := cmp.Diff(string(want)+"\n", out); d != "" {
		t.Errorf("show --json differs from the saved record (-want +got):\n%s", d)
	}
}

func TestShowUnknownRun(t *testing.T) {
	path, _ := storedRuns(t, "Checkout is healthy.")
	out, errText, code := runCLI(t, "", "show", "run-ffffffffffffffff", "--store", path)
	if code != 1 || out != "" {
		t.Errorf("exit %d, out %q", code, out)
	}
	if want := `agentfootprint show: no run "run-ffffffffffffffff" in ` + path; !strings.HasPrefix(errText, want) {
		t.Errorf("stderr %q, want it to start %q", errText, want)
	}
}
