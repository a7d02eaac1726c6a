// This file tests the exporter's options, refusals, the failed and failing-
// tool turns, the JSON-lines provider, and the endpoint parser.

package otelexport_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/otelexport"
	"github.com/agentfootprint/agentfootprint-go/scenario"
	"github.com/agentfootprint/agentfootprint-go/tool"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

func TestContentOptIn(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT" {
				return v
			}
			return ""
		}
	}
	for _, tc := range []struct {
		name string
		opts []otelexport.Option
		want bool
	}{
		{"unset", []otelexport.Option{otelexport.WithGetenv(env(""))}, false},
		{"env true", []otelexport.Option{otelexport.WithGetenv(env("true"))}, true},
		{"env TRUE", []otelexport.Option{otelexport.WithGetenv(env(" TRUE "))}, true},
		{"env 1 is not true", []otelexport.Option{otelexport.WithGetenv(env("1"))}, false},
		{"option wins over env", []otelexport.Option{otelexport.WithGetenv(env("true")), otelexport.WithContent(false)}, false},
		{"option on", []otelexport.Option{otelexport.WithGetenv(env("")), otelexport.WithContent(true)}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x, err := otelexport.New(tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			if got := otelexport.ContentOf(x); got != tc.want {
				t.Errorf("content = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestRefusals(t *testing.T) {
	if _, err := otelexport.New(nil); err == nil || !strings.Contains(err.Error(), "option 0 is nil") {
		t.Errorf("New(nil) = %v, want a refusal naming option 0", err)
	}
	if _, err := otelexport.New(otelexport.WithGetenv(nil)); err == nil {
		t.Error("New(WithGetenv(nil)) was accepted")
	}
	x := otelexport.MustNew()
	if err := x.ExportRecord(context.Background(), nil); err == nil {
		t.Error("ExportRecord(nil) was accepted")
	}
	if err := x.ExportRecord(context.Background(), &record.Record{}); !errors.Is(err, otelexport.ErrNoEvents) {
		t.Errorf("ExportRecord(no events) = %v, want ErrNoEvents", err)
	}
	tooMany := make([]event.Event, otelexport.MaxEvents+1)
	if err := x.ExportEvents(context.Background(), tooMany, nil); err == nil || !strings.Contains(err.Error(), "more than") {
		t.Errorf("ExportEvents(%d events) = %v, want a refusal over the cap", len(tooMany), err)
	}
	if _, err := otelexport.NewProvider(context.Background(), otelexport.Destination{}); err == nil {
		t.Error("NewProvider with no destination was accepted")
	}
	if _, err := otelexport.NewProvider(context.Background(), otelexport.Destination{OTLPEndpoint: "localhost:4318"}); err == nil {
		t.Error("NewProvider with a scheme-less endpoint was accepted")
	}
}

// recorded returns an exporter writing to a fresh span recorder.
func recorded(t *testing.T, opts ...otelexport.Option) (*otelexport.Exporter, *tracetest.SpanRecorder) {
	t.Helper()
	sr := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(sr))
	x, err := otelexport.New(append([]otelexport.Option{otelexport.WithTracerProvider(tp)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return x, sr
}

// TestFailedTurn checks a turn whose tool fails and whose next model call
// fails: the tool span and the root are errors, and the root says why.
func TestFailedTurn(t *testing.T) {
	boom := tool.Must(tool.New("boom", "always fails", func(ctx context.Context, in struct{}) (string, error) {
		return "", errors.New("disk on fire")
	}))
	p := scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "boom", Args: json.RawMessage(`{}`)}}, StopReason: llm.StopToolUse},
		scripted.Reply{Err: errors.New("the model is down")},
	)
	a, err := agent.New(p, agent.WithID("failing"), agent.WithTools(boom))
	if err != nil {
		t.Fatal(err)
	}
	x, sr := recorded(t)
	obs := x.Observer(context.Background())
	stop := obs.Attach(a.MustOn)
	res, runErr := a.Run(context.Background(), agent.Input{Message: "go"})
	stop()
	if runErr == nil {
		t.Fatal("the run did not fail")
	}
	var rec *record.Record
	if res != nil {
		rec = res.Record
	}
	obs.End(rec, runErr)
	byName := map[string]sdktrace.ReadOnlySpan{}
	for _, s := range sr.Ended() {
		byName[s.Name()] = s
	}
	root, ok := byName["invoke_agent failing"]
	if !ok {
		t.Fatalf("no root span among %v", names(sr.Ended()))
	}
	if got := root.Status().Code.String(); got != "Error" {
		t.Errorf("root status %s, want Error", got)
	}
	if m := attrMap(root.Attributes()); m["agentfootprint.turn.outcome"] != "failed" || m["error.type"] != "run_error" {
		t.Errorf("root attributes %v: want outcome failed, error.type run_error", m)
	}
	ts, ok := byName["execute_tool boom"]
	if !ok {
		t.Fatalf("no tool span among %v", names(sr.Ended()))
	}
	if got := ts.Status().Code.String(); got != "Error" {
		t.Errorf("tool span status %s, want Error", got)
	}
	if ts.Parent().SpanID() != root.SpanContext().SpanID() {
		t.Error("the tool span is not a child of the root")
	}
}

func names(spans []sdktrace.ReadOnlySpan) []string {
	var out []string
	for _, s := range spans {
		out = append(out, s.Name())
	}
	return out
}

// TestJSONLinesFile checks that the file destination writes one JSON object
// per span, the demo's tree in it.
func TestJSONLinesFile(t *testing.T) {
	_, rec := runLive(t, scenario.Demo)
	var buf bytes.Buffer
	tp, err := otelexport.NewProvider(context.Background(), otelexport.Destination{File: &buf, ServiceName: "test-service"})
	if err != nil {
		t.Fatal(err)
	}
	x := otelexport.MustNew(otelexport.WithTracerProvider(tp), otelexport.WithContent(false))
	if err := x.ExportRecord(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	if err := tp.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	sc := bufio.NewScanner(&buf)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var span struct {
			Name     string
			Resource []struct {
				Key   string
				Value struct{ Value any }
			}
		}
		if err := json.Unmarshal(sc.Bytes(), &span); err != nil {
			t.Fatalf("line %q is not JSON: %v", sc.Text(), err)
		}
		counts[span.Name]++
		found := false
		for _, kv := range span.Resource {
			if kv.Key == "service.name" && kv.Value.Value == "test-service" {
				found = true
			}
		}
		if !found {
			t.Errorf("span %s has no service.name test-service", span.Name)
		}
	}
	want := map[string]int{"invoke_agent ops-triage": 1, "chat scripted-triage": 3, "execute_tool service_status": 1,
		"execute_tool recent_deploys": 1, "execute_tool search_logs": 1}
	if diff := cmpMaps(want, counts); diff != "" {
		t.Error(diff)
	}
}

func cmpMaps(want, got map[string]int) string {
	var b strings.Builder
	for k, v := range want {
		if got[k] != v {
			b.WriteString(k + ": count differs\n")
		}
	}
	if len(got) != len(want) {
		b.WriteString("unexpected span names\n")
	}
	return b.String()
}

func TestTracesURL(t *testing.T) {
	for _, tc := range []struct{ in, want, err string }{
		{"http://127.0.0.1:4318", "http://127.0.0.1:4318/v1/traces", ""},
		{"http://127.0.0.1:4318/", "http://127.0.0.1:4318/v1/traces", ""},
		{"https://collector.example/otlp/v1/traces", "https://collector.example/otlp/v1/traces", ""},
		{"127.0.0.1:4318", "", "http:// or https://"},
		{"grpc://127.0.0.1:4317", "", "http:// or https://"},
		{"http://", "", "no host"},
	} {
		got, err := otelexport.TracesURL(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("TracesURL(%q) = %q, %v; want an error saying %q", tc.in, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("TracesURL(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	env := map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://a:4318", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": ""}
	if got := otelexport.EndpointFromEnv(func(k string) string { return env[k] }); got != "http://a:4318" {
		t.Errorf("EndpointFromEnv = %q, want the base endpoint", got)
	}
	env["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] = "http://b:4318/v1/traces"
	if got := otelexport.EndpointFromEnv(func(k string) string { return env[k] }); got != "http://b:4318/v1/traces" {
		t.Errorf("EndpointFromEnv = %q, want the traces endpoint", got)
	}
}

func FuzzTracesURL(f *testing.F) {
	for _, s := range []string{"http://127.0.0.1:4318", "https://x/v1/traces", "127.0.0.1:4318", "http://", "::", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := otelexport.TracesURL(s)
		if err != nil {
			return
		}
		if !strings.HasPrefix(got, "http://") && !strings.HasPrefix(got, "https://") {
			t.Errorf("TracesURL(%q) = %q: not an http(s) URL", s, got)
		}
	})
}

// FuzzObserver feeds events of every known name with arbitrary payloads:
// the observer must not panic, and End must always end the root span.
func FuzzObserver(f *testing.F) {
	f.Add(uint8(0), []byte(`{"turnNumber":1}`), uint8(11), []byte(`{"toolCallId":"c","toolName":"t"}`))
	f.Add(uint8(7), []byte(`{"iteration":1,"usage":{"input":1}}`), uint8(13), []byte(`null`))
	f.Add(uint8(15), []byte(`{"kind":"ledger","toolCallId":"c","checked":[1,2]}`), uint8(20), []byte(`[]`))
	f.Fuzz(func(t *testing.T, n1 uint8, p1 []byte, n2 uint8, p2 []byte) {
		all := event.Names()
		sr := tracetest.NewSpanRecorder()
		tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(sr))
		x := otelexport.MustNew(otelexport.WithTracerProvider(tp), otelexport.WithContent(true))
		obs := x.Observer(context.Background())
		start := event.Event{Type: event.ToolsStart, Payload: json.RawMessage(`{"toolName":"t","toolCallId":"c"}`), Meta: event.Meta{RunID: "r"}}
		otelexport.Listen(obs, start)
		otelexport.Listen(obs, event.Event{Type: all[int(n1)%len(all)], Payload: json.RawMessage(p1), Meta: event.Meta{RunID: "r"}})
		otelexport.Listen(obs, event.Event{Type: all[int(n2)%len(all)], Payload: json.RawMessage(p2), Meta: event.Meta{RunID: "r"}})
		obs.End(nil, nil)
		roots := 0
		for _, s := range sr.Ended() {
			if !s.Parent().SpanID().IsValid() {
				roots++
			}
		}
		if roots < 1 {
			t.Errorf("no root span ended among %v", names(sr.Ended()))
		}
	})
}

// TestPausedTurn checks a turn a tool paused: the root says paused, carries
// the pause as an event, and is not an error; the paused call's span ends.
func TestPausedTurn(t *testing.T) {
	ask := tool.Must(tool.New("ask_oncall", "asks the person on call", func(ctx context.Context, in struct{}) (string, error) {
		return "", tool.Pause(map[string]string{"question": "roll back?"})
	}))
	p := scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{{ID: "c9", Name: "ask_oncall", Args: json.RawMessage(`{}`)}}, StopReason: llm.StopToolUse},
	)
	a, err := agent.New(p, agent.WithID("asking"), agent.WithTools(ask))
	if err != nil {
		t.Fatal(err)
	}
	x, sr := recorded(t)
	obs := x.Observer(context.Background())
	detach := obs.Attach(a.MustOn)
	res, runErr := a.Run(context.Background(), agent.Input{Message: "checkout is down"})
	detach()
	if runErr != nil {
		t.Fatalf("run: %v", runErr)
	}
	if !res.Paused {
		t.Fatal("the run did not pause")
	}
	obs.End(res.Record, nil)
	var root, call sdktrace.ReadOnlySpan
	for _, s := range sr.Ended() {
		switch s.Name() {
		case "invoke_agent asking":
			root = s
		case "execute_tool ask_oncall":
			call = s
		}
	}
	if root == nil || call == nil {
		t.Fatalf("spans %v: want the root and the paused call", names(sr.Ended()))
	}
	if m := attrMap(root.Attributes()); m["agentfootprint.turn.outcome"] != "paused" {
		t.Errorf("root outcome %q, want paused", m["agentfootprint.turn.outcome"])
	}
	if got := root.Status().Code.String(); got != "Unset" {
		t.Errorf("root status %s, want Unset", got)
	}
	found := false
	for _, e := range root.Events() {
		if e.Name == "agentfootprint.pause.request" {
			found = attrMap(e.Attributes)["gen_ai.tool.call.id"] == "c9"
		}
	}
	if !found {
		t.Error("the root has no pause.request event naming call c9")
	}
}

// TestRequestSettingsOnTheTurn checks that the agent's max tokens and
// temperature, which only the record's manifest carries, reach the root,
// and the temperature each request set reaches its chat span.
func TestRequestSettingsOnTheTurn(t *testing.T) {
	a, err := agent.New(scripted.New(scripted.Reply{Content: "Fine."}), agent.WithID("tuned"),
		agent.WithMaxTokens(256), agent.WithTemperature(0.25))
	if err != nil {
		t.Fatal(err)
	}
	x, sr := recorded(t)
	obs := x.Observer(context.Background())
	detach := obs.Attach(a.MustOn)
	res, runErr := a.Run(context.Background(), agent.Input{Message: "status?"})
	detach()
	if runErr != nil {
		t.Fatal(runErr)
	}
	obs.End(res.Record, nil)
	got := map[string]map[string]string{}
	for _, s := range sr.Ended() {
		got[s.Name()] = attrMap(s.Attributes())
	}
	root, chat := got["invoke_agent tuned"], got["chat "+res.Record.Manifest.Model]
	if root["gen_ai.request.max_tokens"] != "256" || root["gen_ai.request.temperature"] != "0.25" {
		t.Errorf("root max_tokens %q, temperature %q; want 256 and 0.25", root["gen_ai.request.max_tokens"], root["gen_ai.request.temperature"])
	}
	if chat["gen_ai.request.temperature"] != "0.25" {
		t.Errorf("chat span temperature %q, want 0.25 (spans: %v)", chat["gen_ai.request.temperature"], names(sr.Ended()))
	}
}

// TestChatSpanNamesTheReply checks that a chat span carries the reply's own
// id and model and the output tokens spent reasoning, live and from the
// stored record alike (issue 16): the llm.response event carries them.
func TestChatSpanNamesTheReply(t *testing.T) {
	p := scripted.New(scripted.Reply{Content: "Fine.", Usage: &llm.Usage{Input: 10, Output: 40, Reasoning: 32, Reported: true}})
	a, err := agent.New(p, agent.WithID("thinker"))
	if err != nil {
		t.Fatal(err)
	}
	x, sr := recorded(t)
	obs := x.Observer(context.Background())
	detach := obs.Attach(a.MustOn)
	res, runErr := a.Run(context.Background(), agent.Input{Message: "status?"})
	detach()
	if runErr != nil {
		t.Fatal(runErr)
	}
	obs.End(res.Record, nil)
	model := res.Record.Manifest.Model
	want := map[string]string{
		"gen_ai.response.id":                   "scripted-1",
		"gen_ai.response.model":                model,
		"gen_ai.usage.output_tokens":           "40",
		"gen_ai.usage.reasoning.output_tokens": "32",
	}
	for how, spans := range map[string][]sdktrace.ReadOnlySpan{"live": sr.Ended(), "stored": exportStored(t, res.Record)} {
		var chat map[string]string
		for _, s := range spans {
			if s.Name() == "chat "+model {
				chat = attrMap(s.Attributes())
			}
		}
		if chat == nil {
			t.Fatalf("%s: no chat span among %v", how, names(spans))
		}
		for k, v := range want {
			if chat[k] != v {
				t.Errorf("%s: chat span %s = %q, want %q", how, k, chat[k], v)
			}
		}
	}
}
