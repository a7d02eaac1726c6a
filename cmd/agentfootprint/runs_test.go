package main

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/store"
	"github.com/agentfootprint/agentfootprint-go/store/sqlite"
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
	// A store that does not exist is named, exit 2, and not created.
	out, errText, code := runCLI(t, "", "runs", "--store", path)
	if code != 2 || out != "" || !strings.HasPrefix(errText, "agentfootprint runs: no run store at "+path+" ") {
		t.Errorf("exit %d, out %q, stderr %q", code, out, errText)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("runs created %s", path)
	}
	// A store that exists and holds nothing lists nothing.
	st, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	out, errText, code = runCLI(t, "", "runs", "--store", path)
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

	// --json carries the record as saved, blobs put back; this agent had no results layer,
	// so the standing is null, and its answer carries no limits block.
	out, _, code = runCLI(t, "", "show", id, "--store", path, "--json")
	want, _ := json.Marshal(results[0].Record)
	if code != 0 {
		t.Fatalf("--json exit %d", code)
	}
	var shown struct {
		Run      store.RunInfo   `json:"run"`
		Standing json.RawMessage `json:"standing"`
		Limits   *string         `json:"limits"`
		Record   json.RawMessage `json:"record"`
	}
	if err := json.Unmarshal([]byte(out), &shown); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(want), string(shown.Record)); d != "" {
		t.Errorf("show --json differs from the saved record (-want +got):\n%s", d)
	}
	if shown.Run.ID != id || string(shown.Standing) != "null" || shown.Limits == nil || *shown.Limits != "" {
		t.Errorf("show --json: run %q, standing %s, limits %v", shown.Run.ID, shown.Standing, shown.Limits)
	}
}

// show prints what the framework exists for: the standing, its reasons with their meaning,
// and the limits block; --json carries the same.
func TestShowStandingAndLimits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.db")
	demo, _, code := runCLI(t, "", "demo", "--part", "2", "--store", path)
	m := regexp.MustCompile(`Stored as run (run-[0-9a-f]{16})`).FindStringSubmatch(demo)
	if code != 0 || m == nil {
		t.Fatalf("demo: exit %d\n%s", code, demo)
	}
	out, errText, code := runCLI(t, "", "show", m[1], "--store", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errText)
	}
	for _, want := range []string{
		"Standing: not-sure — at least one reason below holds",
		"  - period-differs-from-asked: the time the tool read is not the time the question asked about",
		"  - argument-unverified: the model chose an argument that a rule governs",
		"Limits (the block the answer carries):\n  What this answer rests on",
		"  - search_logs read less than was asked",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("show lacks %q", want)
		}
	}
	goldenCLI(t, "testdata/runs/show-standing.golden", scrubRun(out, path))

	out, _, _ = runCLI(t, "", "show", m[1], "--store", path, "--json")
	var shown struct {
		Standing struct {
			Standing string `json:"standing"`
			Reasons  []struct {
				Reason, Meaning string
				Witness         []json.RawMessage
			} `json:"reasons"`
		} `json:"standing"`
		Limits string `json:"limits"`
	}
	if err := json.Unmarshal([]byte(out), &shown); err != nil {
		t.Fatal(err)
	}
	st := shown.Standing
	if st.Standing != "not-sure" || len(st.Reasons) != 2 || st.Reasons[1].Reason != "period-differs-from-asked" ||
		!strings.HasPrefix(st.Reasons[1].Meaning, "the time the tool read") || len(st.Reasons[1].Witness) == 0 {
		t.Errorf("--json standing = %+v", st)
	}
	if !strings.HasPrefix(shown.Limits, "What this answer rests on") || strings.Contains(shown.Limits, "---") {
		t.Errorf("--json limits = %q", shown.Limits)
	}
}

func TestShowUnknownRun(t *testing.T) {
	path, _ := storedRuns(t, "Checkout is healthy.")
	out, errText, code := runCLI(t, "", "show", "run-ffffffffffffffff", "--store", path)
	if code != 2 || out != "" {
		t.Errorf("exit %d, out %q", code, out)
	}
	if want := `agentfootprint show: no run "run-ffffffffffffffff" in ` + path; !strings.HasPrefix(errText, want) {
		t.Errorf("stderr %q, want it to start %q", errText, want)
	}
}
