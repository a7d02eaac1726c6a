package otelexport_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/compose"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/otelexport"
	"github.com/agentfootprint/agentfootprint-go/tool"
	"github.com/google/go-cmp/cmp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// routeEvidence exports rec and lists each route decision the root spans
// carry as "run commit: evidence keys".
func routeEvidence(t *testing.T, rec *record.Record) []string {
	t.Helper()
	x, sr := recorded(t)
	if err := x.ExportRecord(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range sr.Ended() {
		run := ""
		for _, a := range s.Attributes() {
			if a.Key == "agentfootprint.run.id" {
				run = a.Value.AsString()
			}
		}
		for _, e := range s.Events() {
			if e.Name != "agentfootprint.agent.route_decided" {
				continue
			}
			commit, keys := "", []string(nil)
			for _, a := range e.Attributes {
				switch a.Key {
				case "agentfootprint.commit.id":
					commit = a.Value.AsString()
				case "agentfootprint.route.evidence_keys":
					keys = a.Value.AsStringSlice()
				}
			}
			out = append(out, fmt.Sprintf("%s %s: %v", run, commit, keys))
		}
	}
	slices.Sort(out)
	return out
}

// TestRouteEvidenceComesFromItsOwnRun: two inner agents of a composition
// both have a route decision with the same runtime stage id; each root span
// carries the keys its own run's decision read (as exporting that inner
// run alone gives), and every turn has them, not only the last.
func TestRouteEvidenceComesFromItsOwnRun(t *testing.T) {
	look := tool.Must(tool.New("look", "Look.", func(context.Context, struct{}) (string, error) { return "seen", nil }))
	a, err := agent.New(scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "look", Args: json.RawMessage(`{}`)}}},
		scripted.Reply{Content: "a done"}), agent.WithID("a"), agent.WithTools(look))
	if err != nil {
		t.Fatal(err)
	}
	b, err := agent.New(scripted.New(scripted.Reply{Content: "b done"}), agent.WithID("b"), agent.WithMaxIterations(1))
	if err != nil {
		t.Fatal(err)
	}
	res, err := compose.MustNew("pair", compose.Sequence(compose.Call("a", a), compose.Call("b", b))).Run(context.Background(), agent.Input{Message: "go"})
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, node := range []string{"agent:a#1", "agent:b#2"} {
		in, ok := res.Record.Inner(node)
		if !ok {
			t.Fatalf("no inner record %s", node)
		}
		want = append(want, routeEvidence(t, in)...)
	}
	slices.Sort(want)
	if len(want) < 3 {
		t.Fatalf("the inner runs alone give %d route decisions (%v), want at least 3", len(want), want)
	}
	for _, w := range want {
		if w[len(w)-2:] == "[]" {
			t.Fatalf("an inner run alone gives a route decision without evidence: %s", w)
		}
	}
	for i := range 10 {
		if d := cmp.Diff(want, routeEvidence(t, res.Record)); d != "" {
			t.Fatalf("export %d of the composition: route evidence (-each run alone +composition):\n%s", i, d)
		}
	}
}

// toolArguments lists the gen_ai.tool.call.arguments of the spans sr ended.
func toolArguments(sr interface {
	Ended() []sdktrace.ReadOnlySpan
}) []string {
	var out []string
	for _, s := range sr.Ended() {
		for _, a := range s.Attributes() {
			if a.Key == "gen_ai.tool.call.arguments" {
				out = append(out, a.Value.AsString())
			}
		}
	}
	return out
}

// TestToolArgumentsLiveAndReplayedAgree: arguments the model wrote with
// spaces and HTML characters read the same on the live observer's span as
// on the span replayed from the decoded record.
func TestToolArgumentsLiveAndReplayedAgree(t *testing.T) {
	look := tool.Must(tool.NewRaw("look", "Look.", json.RawMessage(`{"type":"object"}`),
		func(context.Context, json.RawMessage) (any, error) { return "seen", nil }))
	a, err := agent.New(scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "look", Args: json.RawMessage(`{"x": 1,  "y": "<&>"}`)}}},
		scripted.Reply{Content: "done"}), agent.WithID("a"), agent.WithTools(look))
	if err != nil {
		t.Fatal(err)
	}
	live, liveSR := recorded(t, otelexport.WithContent(true))
	obs := live.Observer(context.Background())
	detach := obs.Attach(a.MustOn)
	res, err := a.Run(context.Background(), agent.Input{Message: "go"})
	detach()
	obs.End(res.Record, err)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res.Record)
	if err != nil {
		t.Fatal(err)
	}
	back, err := record.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	replay, replaySR := recorded(t, otelexport.WithContent(true))
	if err := replay.ExportRecord(context.Background(), back); err != nil {
		t.Fatal(err)
	}
	got, want := toolArguments(replaySR), toolArguments(liveSR)
	if len(want) != 1 {
		t.Fatalf("live spans carry %d tool arguments (%v), want 1", len(want), want)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("tool arguments (-live +replayed):\n%s", d)
	}
}
