// This file runs the demo with the live observer, sends its spans to a real
// Jaeger v2 over OTLP/HTTP, and reads them back from the query API.

package jaegercheck

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/otelexport"
	"github.com/agentfootprint/agentfootprint-go/scenario"
	"github.com/google/go-cmp/cmp"
)

// jaegerConfig is a Jaeger v2 configuration: an OTLP/HTTP receiver, the
// query extension with its own tracing off, in-memory storage, no metrics
// endpoint, everything on 127.0.0.1.
const jaegerConfig = `service:
  extensions: [jaeger_storage, jaeger_query]
  pipelines:
    traces:
      receivers: [otlp]
      exporters: [jaeger_storage_exporter]
  telemetry:
    metrics:
      level: none
    logs:
      level: warn
extensions:
  jaeger_query:
    enable_tracing: false
    storage:
      traces: memstore
    http:
      endpoint: 127.0.0.1:%d
    grpc:
      endpoint: 127.0.0.1:%d
  jaeger_storage:
    backends:
      memstore:
        memory:
          max_traces: 1000
receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:%d
exporters:
  jaeger_storage_exporter:
    trace_storage: memstore
`

// jaegerBinary returns the collector binary, skipping (or failing in CI)
// when it was not built.
func jaegerBinary(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("JAEGER_BIN")
	if bin != "" {
		if _, err := os.Stat(bin); err == nil {
			return bin
		}
	}
	msg := "no Jaeger binary: build it with `cd jaegercheck/collector && go build -o /tmp/jaeger github.com/jaegertracing/jaeger/cmd/jaeger` and set JAEGER_BIN=/tmp/jaeger (.ci/run does both)"
	if bin != "" {
		msg = "JAEGER_BIN=" + bin + " does not exist; " + msg
	}
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// freePort returns a loopback port nothing listens on right now.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startJaeger runs the collector until the test ends and returns its OTLP
// base URL and query base URL.
func startJaeger(t *testing.T, bin string) (otlp, query string) {
	t.Helper()
	qport, gport, oport := freePort(t), freePort(t), freePort(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "jaeger.yaml")
	if err := os.WriteFile(cfg, fmt.Appendf(nil, jaegerConfig, qport, gport, oport), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "--config", "file:"+cfg)
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("jaeger output:\n%s", logs.String())
		}
	})
	query = fmt.Sprintf("http://127.0.0.1:%d", qport)
	otlp = fmt.Sprintf("http://127.0.0.1:%d", oport)
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(query + "/api/services")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK && portOpen(oport) {
				return otlp, query
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("jaeger did not come up in 60s:\n%s", logs.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func portOpen(port int) bool {
	c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// runDemo runs demo part 1 with the live observer, exporting over OTLP.
func runDemo(t *testing.T, endpoint, service string) {
	t.Helper()
	f, err := scenario.Demo()
	if err != nil {
		t.Fatal(err)
	}
	p, err := f.Parts()
	if err != nil {
		t.Fatal(err)
	}
	opts := append(append([]agent.Option{}, p.Options...), agent.WithUnits(p.Units...), agent.WithTools(p.Tools...))
	a, err := agent.New(p.Provider, opts...)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tp, err := otelexport.NewProvider(ctx, otelexport.Destination{OTLPEndpoint: endpoint, ServiceName: service})
	if err != nil {
		t.Fatal(err)
	}
	x, err := otelexport.New(otelexport.WithTracerProvider(tp), otelexport.WithContent(false))
	if err != nil {
		t.Fatal(err)
	}
	obs := x.Observer(ctx)
	stop := obs.Attach(a.MustOn)
	res, runErr := a.Run(ctx, agent.Input{Message: f.Question()})
	stop()
	if runErr != nil {
		t.Fatalf("the demo run failed: %v", runErr)
	}
	obs.End(res.Record, nil)
	sctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if err := tp.Shutdown(sctx); err != nil {
		t.Fatalf("exporting to jaeger: %v", err)
	}
}

// jaegerTrace is the part of the query API's answer the test reads.
type jaegerTrace struct {
	TraceID string `json:"traceID"`
	Spans   []struct {
		SpanID        string `json:"spanID"`
		OperationName string `json:"operationName"`
		References    []struct {
			RefType string `json:"refType"`
			SpanID  string `json:"spanID"`
		} `json:"references"`
		Tags []jaegerTag `json:"tags"`
		Logs []struct {
			Fields []jaegerTag `json:"fields"`
		} `json:"logs"`
	} `json:"spans"`
}

type jaegerTag struct {
	Key   string `json:"key"`
	Value any    `json:"value"`
}

// fetchTraces polls the query API until the service has a trace.
func fetchTraces(t *testing.T, query, service string) []jaegerTrace {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(query + "/api/traces?service=" + service + "&limit=10")
		if err == nil {
			var body struct {
				Data []jaegerTrace `json:"data"`
			}
			err = json.NewDecoder(resp.Body).Decode(&body)
			resp.Body.Close()
			if err == nil && len(body.Data) > 0 && len(body.Data[0].Spans) >= 7 {
				return body.Data
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("jaeger holds no complete trace of service %s after 30s (last error: %v)", service, err)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

func tagValue(tags []jaegerTag, key string) string {
	for _, tg := range tags {
		if tg.Key == key {
			return fmt.Sprint(tg.Value)
		}
	}
	return ""
}

func TestDemoTraceInJaeger(t *testing.T) {
	bin := jaegerBinary(t)
	otlp, query := startJaeger(t, bin)
	service := fmt.Sprintf("agentfootprint-jaegercheck-%d", time.Now().UnixNano())
	runDemo(t, otlp, service)
	traces := fetchTraces(t, query, service)
	if len(traces) != 1 {
		t.Fatalf("%d traces, want 1 (one turn)", len(traces))
	}
	tr := traces[0]

	// The tree: one root, every other span its child.
	byID := map[string]string{}
	for _, s := range tr.Spans {
		byID[s.SpanID] = s.OperationName
	}
	var root string
	children := []string{}
	for _, s := range tr.Spans {
		parent := ""
		for _, r := range s.References {
			if r.RefType == "CHILD_OF" {
				parent = r.SpanID
			}
		}
		if parent == "" {
			if root != "" {
				t.Errorf("two roots: %s and %s", byID[root], s.OperationName)
			}
			root = s.SpanID
			continue
		}
		if byID[parent] != "invoke_agent ops-triage" {
			t.Errorf("span %s has parent %q, want the invoke_agent root", s.OperationName, byID[parent])
		}
		children = append(children, s.OperationName)
	}
	if byID[root] != "invoke_agent ops-triage" {
		t.Fatalf("root is %q, want invoke_agent ops-triage", byID[root])
	}
	sort.Strings(children)
	want := []string{"chat scripted-triage", "chat scripted-triage", "chat scripted-triage",
		"execute_tool recent_deploys", "execute_tool search_logs", "execute_tool service_status"}
	if diff := cmp.Diff(want, children); diff != "" {
		t.Errorf("children of the root (-want +got):\n%s", diff)
	}

	// The honesty attributes, as Jaeger stored them.
	for _, s := range tr.Spans {
		switch s.OperationName {
		case "invoke_agent ops-triage":
			for key, want := range map[string]string{
				"gen_ai.operation.name":          "invoke_agent",
				"gen_ai.agent.id":                "ops-triage",
				"agentfootprint.answer.standing": "not-sure",
				"agentfootprint.turn.outcome":    "answered",
			} {
				if got := tagValue(s.Tags, key); got != want {
					t.Errorf("root %s = %q, want %q", key, got, want)
				}
			}
			if got := tagValue(s.Tags, "agentfootprint.answer.reasons"); !strings.Contains(got, "period-not-held") {
				t.Errorf("root reasons %q do not name period-not-held", got)
			}
			if !strings.HasPrefix(tagValue(s.Tags, "agentfootprint.run.id"), "run-") {
				t.Errorf("root run id %q does not name a run", tagValue(s.Tags, "agentfootprint.run.id"))
			}
			routes := 0
			for _, l := range s.Logs {
				if tagValue(l.Fields, "event") == "agentfootprint.agent.route_decided" {
					routes++
					if !strings.Contains(tagValue(l.Fields, "agentfootprint.route.evidence_keys"), "llmLatestToolCalls") {
						t.Errorf("a route decision without its evidence keys: %v", l.Fields)
					}
				}
			}
			if routes != 3 {
				t.Errorf("%d route decisions on the root, want 3", routes)
			}
		case "execute_tool search_logs":
			for key, want := range map[string]string{
				"gen_ai.tool.call.id":                  "call_logs",
				"agentfootprint.period.verdict":        "not-held",
				"agentfootprint.coverage.checked":      "1",
				"agentfootprint.coverage.cannot_cover": "1",
				"agentfootprint.commit.id":             "tool-calls#18",
			} {
				if got := tagValue(s.Tags, key); got != want {
					t.Errorf("search_logs %s = %q, want %q", key, got, want)
				}
			}
			if got := tagValue(s.Tags, "agentfootprint.envelope.kinds"); !strings.Contains(got, "af_coverage") {
				t.Errorf("search_logs envelope kinds %q, want af_coverage", got)
			}
		}
	}
}
