package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/scenario"
	"github.com/agentfootprint/agentfootprint-go/store"
	"github.com/agentfootprint/agentfootprint-go/store/sqlite"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// TestMain points the default store at a temporary directory, so a command run without
// --store never writes under the real user's data directory. Only the directory's unique
// name is kept, not the directory: a command that writes the default store makes the
// directories it needs, while a process that never gets to the cleanup below (the child
// TestWriteFileAtomicSurvivesAKill kills) would leave a directory made here behind.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "agentfootprint-cli")
	if err == nil {
		err = os.Remove(dir)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("XDG_DATA_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type serviceIn struct {
	Service string `json:"service" jsonschema:"the service to check"`
}

// scriptedTurn runs one offline turn: the model checks a service, then answers.
func scriptedTurn(t *testing.T, service, answer string) *agent.Result {
	t.Helper()
	status, err := tool.New("service_status", "Report a service's health.",
		func(ctx context.Context, in serviceIn) (string, error) {
			return in.Service + " is degraded since 09:04 UTC", nil
		})
	if err != nil {
		t.Fatal(err)
	}
	model := scripted.New(
		scripted.Reply{Content: "Checking " + service + ".", ToolCalls: []llm.ToolCall{{ID: "call_1", Name: "service_status", Args: json.RawMessage(`{"service":"` + service + `"}`)}}},
		scripted.Reply{Content: answer},
	)
	a, err := agent.New(model, agent.WithTools(status), agent.WithID("cli-triage"), agent.WithModel("scripted-triage"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Run(context.Background(), agent.Input{Message: "Is " + service + " healthy?"})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// storedRuns saves one scripted turn per answer into a fresh SQLite store and returns its
// path and the results, in order.
func storedRuns(t *testing.T, answers ...string) (string, []*agent.Result) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "runs.db")
	ctx := context.Background()
	st, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var out []*agent.Result
	for _, a := range answers {
		res := scriptedTurn(t, "checkout", a)
		if _, err := store.SaveResult(ctx, st, res, nil); err != nil {
			t.Fatal(err)
		}
		out = append(out, res)
	}
	return path, out
}

func TestLoadRecord(t *testing.T) {
	path, results := storedRuns(t, "Checkout is degraded.")
	want, _ := json.Marshal(results[0].Record)
	file := filepath.Join(t.TempDir(), "record.json")
	if err := os.WriteFile(file, want, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, arg := range []string{results[0].RunID, file} {
		rec, err := loadRecord(ctx, path, arg)
		if err != nil {
			t.Fatalf("%s: %v", arg, err)
		}
		got, _ := json.Marshal(rec)
		if string(got) != string(want) {
			t.Errorf("%s: the loaded record differs from the saved one", arg)
		}
	}
	_, err := loadRecord(ctx, path, "run-0000000000000000")
	var unknown *unknownRunError
	if !errors.As(err, &unknown) || unknown.ID != "run-0000000000000000" || unknown.Where != path {
		t.Errorf("unknown id: %v", err)
	}
	// A store under a regular file cannot be created: the error names the store, not the run.
	_, err = loadRecord(ctx, filepath.Join(file, "runs.db"), "run-1")
	if err == nil || errors.As(err, &unknown) || !strings.Contains(err.Error(), "opening the run store") {
		t.Errorf("unopenable store: %v", err)
	}
}

func TestSaveReport(t *testing.T) {
	f, err := scenario.Demo()
	if err != nil {
		t.Fatal(err)
	}
	rep, runErr := scenario.Run(context.Background(), f)
	if runErr != nil {
		t.Fatal(runErr)
	}
	path := filepath.Join(t.TempDir(), "runs.db")
	info, where, err := saveReport(context.Background(), path, rep, nil)
	if err != nil {
		t.Fatal(err)
	}
	if where != path || info.ID != rep.Record.Manifest.RunID || info.Status != "complete" || info.Answer != rep.Answer {
		t.Errorf("stored %+v in %s", info, where)
	}
	out, errText, code := runCLI(t, "", "show", info.ID, "--store", path, "--json")
	var shown struct {
		Record json.RawMessage `json:"record"`
	}
	want, _ := json.Marshal(rep.Record)
	if code != 0 || json.Unmarshal([]byte(out), &shown) != nil || string(shown.Record) != string(want) {
		t.Errorf("show --json: exit %d (%s); the stored demo record differs from the report's", code, errText)
	}
	// A failed run is stored as failed; a report without a record is refused.
	info, _, err = saveReport(context.Background(), path, rep, errors.New("the script ran out"))
	if err != nil || info.Status != "failed" {
		t.Errorf("failed run: %+v, %v", info, err)
	}
	if _, _, err := saveReport(context.Background(), path, &scenario.Report{}, nil); err == nil {
		t.Error("a report without a record was stored")
	}
}

func TestDemoStoresItsRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.db")
	out, errText, code := runCLI(t, "", "demo", "--store", path)
	if code != 0 || errText != "" {
		t.Fatalf("exit %d: %s", code, errText)
	}
	m := regexp.MustCompile(`Stored as run (run-[0-9a-f]{16}) in ` + regexp.QuoteMeta(path) + `:\n`).FindStringSubmatch(out)
	if n := strings.Count(out, "Stored as run "); n != 2 {
		t.Errorf("demo stored %d runs, want one per part", n)
	}
	if m == nil {
		t.Fatalf("demo does not say where its run went:\n%s", out)
	}
	id := m[1]
	if !strings.Contains(out, "agentfootprint explain "+id+" --store "+path) {
		t.Errorf("demo does not print the explain command for %s", id)
	}
	shown, errText, code := runCLI(t, "", "show", id, "--store", path)
	if code != 0 || !strings.Contains(shown, "Run "+id+" (complete)") || !strings.Contains(shown, "3. search_logs ") {
		t.Errorf("show of the demo run: exit %d %s\n%s", code, errText, shown)
	}
	// --json stores too, without a word outside the JSON.
	js, errText, code := runCLI(t, "", "demo", "--json", "--store", path)
	if code != 0 || errText != "" || !json.Valid([]byte(js)) {
		t.Errorf("demo --json: exit %d, stderr %q", code, errText)
	}
	list, _, _ := runCLI(t, "", "runs", "--store", path, "--json")
	var infos []store.RunInfo
	json.Unmarshal([]byte(list), &infos)
	if len(infos) != 3 {
		t.Errorf("%d runs stored after `demo` (two parts) and `demo --json` (one), want 3", len(infos))
	}
	// --no-store leaves the store as it was.
	other := filepath.Join(t.TempDir(), "other.db")
	out, _, code = runCLI(t, "", "demo", "--no-store", "--store", other)
	if code != 0 || strings.Contains(out, "Stored as run") {
		t.Errorf("--no-store: exit %d, output mentions a stored run", code)
	}
	if _, err := os.Stat(other); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("--no-store created %s (%v)", other, err)
	}
}

func TestDemoModelFlags(t *testing.T) {
	clearProviderEnv(t)
	for _, c := range []struct {
		args []string
		err  string
	}{
		{[]string{"demo", "--model", "llama3.2"}, "name its --provider too"},
		{[]string{"demo", "--provider", "ollama"}, "no model named for ollama: name one with --model"},
		{[]string{"demo", "--provider", "mistral", "--model", "m"}, `unknown provider "mistral": the known providers are anthropic, ollama, openai`},
		{[]string{"demo", "--provider", "opneai", "--model", "m"}, `unknown provider "opneai": the known providers are anthropic, ollama, openai (did you mean openai?)`},
		// The key is named before the model, and before any contact with the host.
		{[]string{"demo", "--provider", "openai"}, "no API key for openai: set OPENAI_API_KEY"},
		{[]string{"demo", "--provider", "anthropic", "--model", "claude"}, "no API key for anthropic: set ANTHROPIC_API_KEY"},
	} {
		out, errText, code := runCLI(t, "", c.args...)
		if code != 2 || out != "" || !strings.Contains(errText, c.err) {
			t.Errorf("%v: exit %d, out %q, stderr %q", c.args, code, out, errText)
		}
	}
}
