// This file pins the span schema: the spans of the demo's scripted runs,
// folded into a tree and compared with golden files, content capture off
// and on, and the live and after-the-fact ways in compared span for span.

package otelexport_test

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/otelexport"
	"github.com/agentfootprint/agentfootprint-go/scenario"
	"github.com/google/go-cmp/cmp"
	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// node is one span as the golden files hold it.
type node struct {
	Name       string            `json:"name"`
	Status     string            `json:"status"`
	Attributes map[string]string `json:"attributes"`
	Events     []eventNode       `json:"events,omitempty"`
	Children   []node            `json:"children,omitempty"`
}

// eventNode is one span event as the golden files hold it.
type eventNode struct {
	Name       string            `json:"name"`
	Attributes map[string]string `json:"attributes,omitempty"`
}

// perRun is what replaces values that change from one run to the next.
const perRun = "<per-run>"

// perRunKeys are the attributes whose values are run ids. (The request and
// response digests stay: the scripted exchanges are byte for byte the same
// on every run.)
var perRunKeys = map[string]bool{
	"agentfootprint.run.id":  true,
	"gen_ai.conversation.id": true,
}

// demoAgent builds the agent of a demo part from its scenario file.
func demoAgent(t *testing.T, load func() (*scenario.File, error)) (*agent.Agent, string) {
	t.Helper()
	f, err := load()
	if err != nil {
		t.Fatal(err)
	}
	p, err := f.Parts()
	if err != nil {
		t.Fatal(err)
	}
	opts := append([]agent.Option{}, p.Options...)
	opts = append(opts, agent.WithUnits(p.Units...), agent.WithTools(p.Tools...))
	a, err := agent.New(p.Provider, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return a, f.Question()
}

// runLive runs a demo part with an Observer attached and returns its spans
// and the run's record.
func runLive(t *testing.T, load func() (*scenario.File, error), opts ...otelexport.Option) ([]sdktrace.ReadOnlySpan, *record.Record) {
	t.Helper()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	x, err := otelexport.New(append([]otelexport.Option{otelexport.WithTracerProvider(tp)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	a, q := demoAgent(t, load)
	obs := x.Observer(context.Background())
	stop := obs.Attach(a.MustOn)
	res, runErr := a.Run(context.Background(), agent.Input{Message: q})
	stop()
	if runErr != nil {
		t.Fatalf("the demo run failed: %v", runErr)
	}
	obs.End(res.Record, runErr)
	return rec.Ended(), res.Record
}

// exportStored writes rec as JSON, decodes it back (so payloads are raw
// JSON, as read from a store) and exports its spans.
func exportStored(t *testing.T, rec *record.Record, opts ...otelexport.Option) []sdktrace.ReadOnlySpan {
	t.Helper()
	data, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := record.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	sr := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(sr))
	x, err := otelexport.New(append([]otelexport.Option{otelexport.WithTracerProvider(tp)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	if err := x.ExportRecord(context.Background(), stored); err != nil {
		t.Fatal(err)
	}
	return sr.Ended()
}

// fold turns spans into trees, roots first, per-run values replaced.
func fold(spans []sdktrace.ReadOnlySpan) []node {
	byParent := map[trace.SpanID][]sdktrace.ReadOnlySpan{}
	ids := map[trace.SpanID]bool{}
	for _, s := range spans {
		ids[s.SpanContext().SpanID()] = true
	}
	var roots []sdktrace.ReadOnlySpan
	for _, s := range spans {
		if p := s.Parent().SpanID(); p.IsValid() && ids[p] {
			byParent[p] = append(byParent[p], s)
		} else {
			roots = append(roots, s)
		}
	}
	var build func(s sdktrace.ReadOnlySpan) node
	build = func(s sdktrace.ReadOnlySpan) node {
		n := node{Name: s.Name(), Status: s.Status().Code.String(), Attributes: attrMap(s.Attributes())}
		if d := s.Status().Description; d != "" {
			n.Status += ": " + d
		}
		for _, e := range s.Events() {
			n.Events = append(n.Events, eventNode{Name: e.Name, Attributes: attrMap(e.Attributes)})
		}
		kids := byParent[s.SpanContext().SpanID()]
		sortSpans(kids)
		for _, k := range kids {
			n.Children = append(n.Children, build(k))
		}
		return n
	}
	sortSpans(roots)
	out := make([]node, 0, len(roots))
	for _, r := range roots {
		out = append(out, build(r))
	}
	return out
}

// sortSpans orders sibling spans by start time, then by commit id and
// call id, which break the ties of spans started in the same millisecond.
func sortSpans(s []sdktrace.ReadOnlySpan) {
	key := func(sp sdktrace.ReadOnlySpan) string {
		m := attrMap(sp.Attributes())
		return m["agentfootprint.iteration"] + "|" + m["gen_ai.operation.name"] + "|" + m["gen_ai.tool.call.id"]
	}
	sort.SliceStable(s, func(i, j int) bool {
		if !s[i].StartTime().Equal(s[j].StartTime()) {
			return s[i].StartTime().Before(s[j].StartTime())
		}
		return key(s[i]) < key(s[j])
	})
}

// attrMap renders attributes as strings, per-run values replaced.
func attrMap(kvs []attribute.KeyValue) map[string]string {
	if len(kvs) == 0 {
		return nil
	}
	m := make(map[string]string, len(kvs))
	for _, kv := range kvs {
		v := kv.Value.String()
		if kv.Value.Type() == attribute.STRINGSLICE {
			b, _ := json.Marshal(kv.Value.AsStringSlice())
			v = string(b)
		}
		if perRunKeys[string(kv.Key)] {
			v = perRun
		}
		m[string(kv.Key)] = v
	}
	return m
}

// compareGolden compares got with testdata/name, or rewrites it with -update.
func compareGolden(t *testing.T, name string, got []node) {
	t.Helper()
	path := filepath.Join("testdata", name)
	b, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, '\n')
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update to write it)", err, t.Name())
	}
	var want []node
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("spans differ from %s (-want +got):\n%s", path, diff)
	}
}

func TestSpanSchemaGolden(t *testing.T) {
	for _, tc := range []struct {
		name    string
		content bool
		golden  string
	}{
		{"content off", false, "demo_spans.json"},
		{"content on", true, "demo_spans_content.json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spans, _ := runLive(t, scenario.Demo, otelexport.WithContent(tc.content))
			compareGolden(t, tc.golden, fold(spans))
		})
	}
}

// TestLookbackSpansGolden pins the second demo part through the stored
// way in: scenario.Run gives the turn the file's clock, so its requests are
// byte for byte the same on every run (run live without that clock, one
// request carries the wall clock's time).
func TestLookbackSpansGolden(t *testing.T) {
	f, err := scenario.LookbackDemo()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := scenario.Run(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	spans := exportStored(t, rep.Record, otelexport.WithContent(false))
	compareGolden(t, "lookback_spans.json", fold(spans))
}

// TestLiveAndStoredAgree checks that a run's live spans and the spans
// exported from its stored record are the same: tree, attributes, events
// and times.
func TestLiveAndStoredAgree(t *testing.T) {
	for name, load := range map[string]func() (*scenario.File, error){"demo": scenario.Demo, "lookback": scenario.LookbackDemo} {
		for _, content := range []bool{false, true} {
			t.Run(name, func(t *testing.T) {
				live, rec := runLive(t, load, otelexport.WithContent(content))
				stored := exportStored(t, rec, otelexport.WithContent(content))
				if diff := cmp.Diff(foldExact(live), foldExact(stored)); diff != "" {
					t.Errorf("live and stored spans differ (-live +stored):\n%s", diff)
				}
				if len(live) < 4 {
					t.Errorf("only %d spans: want a root, chat spans and tool spans", len(live))
				}
			})
		}
	}
}

// timedNode is a span with its times and unreplaced attributes, for the
// live/stored comparison.
type timedNode struct {
	Name     string
	Start    int64
	End      int64
	Attrs    string
	Events   []string
	Children []timedNode
}

// foldExact folds spans keeping times and every attribute value.
func foldExact(spans []sdktrace.ReadOnlySpan) []timedNode {
	byParent := map[trace.SpanID][]sdktrace.ReadOnlySpan{}
	var roots []sdktrace.ReadOnlySpan
	for _, s := range spans {
		if p := s.Parent().SpanID(); p.IsValid() {
			byParent[p] = append(byParent[p], s)
		} else {
			roots = append(roots, s)
		}
	}
	var build func(s sdktrace.ReadOnlySpan) timedNode
	build = func(s sdktrace.ReadOnlySpan) timedNode {
		n := timedNode{Name: s.Name(), Start: s.StartTime().UnixNano(), End: s.EndTime().UnixNano(), Attrs: attrString(s.Attributes())}
		for _, e := range s.Events() {
			n.Events = append(n.Events, e.Name+" "+e.Time.UTC().String()+" "+attrString(e.Attributes))
		}
		kids := byParent[s.SpanContext().SpanID()]
		sortSpans(kids)
		for _, k := range kids {
			n.Children = append(n.Children, build(k))
		}
		return n
	}
	sortSpans(roots)
	var out []timedNode
	for _, r := range roots {
		out = append(out, build(r))
	}
	return out
}

func attrString(kvs []attribute.KeyValue) string {
	parts := make([]string, 0, len(kvs))
	for _, kv := range kvs {
		parts = append(parts, string(kv.Key)+"="+kv.Value.String())
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}
