// This file tests `agentfootprint trace` and the --otlp-endpoint / --trace-file flags of
// `demo` and `scenario run`, against a JSON-lines file and an in-process OTLP/HTTP receiver.

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/scenario"
	"github.com/google/go-cmp/cmp"
)

// demoSpanNames are the span names of demo part 1, sorted.
var demoSpanNames = []string{
	"chat scripted-triage", "chat scripted-triage", "chat scripted-triage",
	"execute_tool recent_deploys", "execute_tool search_logs", "execute_tool service_status",
	"invoke_agent ops-triage",
}

// jsonLineNames returns the span names of a JSON-lines trace, sorted.
func jsonLineNames(t *testing.T, data string) []string {
	t.Helper()
	var out []string
	sc := bufio.NewScanner(strings.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var span struct{ Name string }
		if err := json.Unmarshal(sc.Bytes(), &span); err != nil {
			t.Fatalf("trace line %q: %v", sc.Text(), err)
		}
		out = append(out, span.Name)
	}
	sort.Strings(out)
	return out
}

func TestDemoTraceFileAndTraceCommand(t *testing.T) {
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	dir := t.TempDir()
	db := filepath.Join(dir, "runs.db")
	file := filepath.Join(dir, "spans.jsonl")
	out, errOut, code := runCLI(t, "", "demo", "--part", "1", "--store", db, "--trace-file", file)
	if code != 0 {
		t.Fatalf("demo exited %d: %s", code, errOut)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(demoSpanNames, jsonLineNames(t, string(data))); diff != "" {
		t.Errorf("--trace-file spans (-want +got):\n%s", diff)
	}
	id := regexp.MustCompile(`Stored as run (run-[0-9a-f]+)`).FindStringSubmatch(out)
	if id == nil {
		t.Fatalf("demo did not say where it stored the run:\n%s", out)
	}
	out, errOut, code = runCLI(t, "", "trace", id[1], "--store", db)
	if code != 0 {
		t.Fatalf("trace exited %d: %s", code, errOut)
	}
	if diff := cmp.Diff(demoSpanNames, jsonLineNames(t, out)); diff != "" {
		t.Errorf("trace spans (-want +got):\n%s", diff)
	}
	if want := "Exported 7 spans of run " + id[1] + " to standard output."; !strings.Contains(errOut, want) {
		t.Errorf("trace said %q, want %q", errOut, want)
	}
	_, errOut, code = runCLI(t, "", "trace", "run-0000000000000000", "--store", db)
	if code != 2 || !strings.Contains(errOut, "no run") {
		t.Errorf("trace of an unknown id: exit %d, %q; want exit 2 (the CLI's table) naming the run", code, errOut)
	}
}

// otlpReceiver is an in-process OTLP/HTTP endpoint that keeps what it is sent.
type otlpReceiver struct {
	mu     sync.Mutex
	paths  []string
	types  []string
	bodies [][]byte
}

func (r *otlpReceiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	r.paths = append(r.paths, req.Method+" "+req.URL.Path)
	r.types = append(r.types, req.Header.Get("Content-Type"))
	r.bodies = append(r.bodies, body)
	r.mu.Unlock()
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.WriteHeader(http.StatusOK)
}

func (r *otlpReceiver) check(t *testing.T) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.paths) == 0 {
		t.Fatal("the OTLP receiver got no request")
	}
	all := bytes.Join(r.bodies, nil)
	for i, p := range r.paths {
		if p != "POST /v1/traces" || r.types[i] != "application/x-protobuf" {
			t.Errorf("request %d: %s (%s), want POST /v1/traces (application/x-protobuf)", i, p, r.types[i])
		}
	}
	for _, want := range []string{"invoke_agent ops-triage", "execute_tool search_logs", "agentfootprint.period.verdict", "not-held"} {
		if !bytes.Contains(all, []byte(want)) {
			t.Errorf("the exported spans do not mention %q", want)
		}
	}
}

func TestScenarioRunOTLPEndpoint(t *testing.T) {
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	rcv := &otlpReceiver{}
	srv := httptest.NewServer(rcv)
	defer srv.Close()
	file := filepath.Join(t.TempDir(), "demo.json")
	if err := os.WriteFile(file, scenario.DemoFile(), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := runCLI(t, "", "scenario", "run", file, "--otlp-endpoint", srv.URL)
	if code != 0 {
		t.Fatalf("scenario run exited %d: %s", code, errOut)
	}
	if strings.Contains(errOut, "not exported") {
		t.Errorf("scenario run reported a failed export: %s", errOut)
	}
	rcv.check(t)
}

func TestDemoHonoursOTLPEnvironment(t *testing.T) {
	rcv := &otlpReceiver{}
	srv := httptest.NewServer(rcv)
	defer srv.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", srv.URL)
	_, errOut, code := runCLI(t, "", "demo", "--part", "1", "--no-store")
	if code != 0 {
		t.Fatalf("demo exited %d: %s", code, errOut)
	}
	rcv.check(t)
}

func TestBadOTLPEndpoint(t *testing.T) {
	root := newRootCmd()
	root.SetOut(io.Discard)
	root.SetErr(io.Discard)
	root.SetArgs([]string{"demo", "--no-store", "--otlp-endpoint", "127.0.0.1:4318"})
	err := root.Execute()
	if err == nil || !strings.Contains(err.Error(), "want an http:// or https:// URL") {
		t.Errorf("demo --otlp-endpoint 127.0.0.1:4318 = %v, want a refusal asking for an http:// URL", err)
	}
}

func TestUnreachableCollectorKeepsTheRun(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there any more
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	_, errOut, code := runCLI(t, "", "demo", "--part", "1", "--no-store", "--otlp-endpoint", url)
	if code != 0 {
		t.Errorf("demo exited %d with an unreachable collector; the run itself went fine", code)
	}
	if !strings.Contains(errOut, "the trace was not exported") {
		t.Errorf("demo did not say the trace was lost: %q", errOut)
	}
}

// A record whose agent kept no event log has nothing to build spans from:
// trace refuses it as a file of the wrong kind (exit 2) and names the option
// that made it so.
func TestTraceOfARecordWithoutEvents(t *testing.T) {
	a, err := agent.New(scripted.New(scripted.Reply{Content: "Nothing is broken."}), agent.WithoutEventLog())
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Run(context.Background(), agent.Input{Message: "What is broken?"})
	if err != nil {
		t.Fatal(err)
	}
	if n := res.Record.Events.Len(); n != 0 {
		t.Fatalf("the record keeps %d events, want none", n)
	}
	data, err := json.Marshal(res.Record)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "record.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "", "trace", path)
	if code != 2 || out != "" {
		t.Fatalf("trace of a record without events: exit %d, stdout %q; want exit 2 and nothing printed", code, out)
	}
	for _, want := range []string{"run " + res.Record.Manifest.RunID + " kept no events", "agent.WithoutEventLog()"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("trace's refusal %q lacks %q", errOut, want)
		}
	}
}
