// Tests of the evidence: context units and their triggers, request capture
// with byte spans, and the record's JSON form.

package agent_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/google/go-cmp/cmp"
)

func valueAt[T any](t *testing.T, rec *record.Record, stage, key string) T {
	t.Helper()
	i, ok := rec.Log.Find(stage)
	if !ok {
		t.Fatalf("no commit %s", stage)
	}
	v, ok, err := flow.ValueAt(rec.Log, i, key)
	if err != nil || !ok {
		t.Fatalf("%s at %s: %v %v", key, stage, ok, err)
	}
	tv, ok := v.(T)
	if !ok {
		t.Fatalf("%s at %s is %T", key, stage, v)
	}
	return tv
}

func TestContextUnitsEvidence(t *testing.T) {
	fact := inject.Must(inject.Fact("refund-window", "Refunds are accepted for 30 days; quote \"exactly\" <this> \u2028 \U0001F600."))
	vip := inject.Must(inject.Instruction("vip-tone", "Address the customer by name.", inject.Rule{
		Label: "the person mentions VIP",
		When: func(r flow.Reader) bool {
			v, _ := r.Get("userMessage")
			s, _ := v.(string)
			return strings.Contains(s, "VIP")
		},
	}))
	after := inject.Must(inject.Steering("after-status", "Status data can lag by a minute.", inject.WithToolReturn("service_status")))
	p := scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{call("c1", "service_status", `{"service":"checkout"}`)}},
		scripted.Reply{Content: "Done."},
	)
	a, err := agent.New(p, agent.WithTools(statusTool(t, nil)), agent.WithUnits(fact, vip, after))
	if err != nil {
		t.Fatal(err)
	}
	var log eventLog
	log.on(a)
	res, err := a.Run(context.Background(), agent.Input{Message: "no special status"})
	if err != nil {
		t.Fatal(err)
	}
	rec := res.Record

	// BORN: the catalog names the definition site of each unit.
	cat := valueAt[[]inject.CatalogEntry](t, rec, "seed#0", "contextCatalog")
	if len(cat) != 4 || cat[0].ID != "refund-window" || cat[3].ID != "tool/service_status" || cat[3].SchemaHash == "" {
		t.Fatalf("catalog = %s", mustJSON(t, cat))
	}
	if !strings.HasSuffix(cat[0].DefinedAt.File, "record_test.go") || !strings.Contains(cat[0].DefinedAt.Function, "TestContextUnitsEvidence") {
		t.Errorf("definedAt = %+v", cat[0].DefinedAt)
	}
	sum := sha256.Sum256([]byte(fact.Definition().Text))
	if cat[0].ContentHash != "sha256:"+hex.EncodeToString(sum[:]) {
		t.Errorf("contentHash = %s", cat[0].ContentHash)
	}

	// ALLOWED: iteration 1 — the rule read userMessage, written by seed#0.
	cu1 := valueAt[state.ContextUnits](t, rec, "context#1", "contextUnits")
	wantRule := inject.Evidence{Kind: inject.TriggerRule, Label: "the person mentions VIP", Matched: new(bool),
		Reads: []inject.KeyRead{{Key: "userMessage", Writer: "seed#0", Commit: 1}}}
	if diff := cmp.Diff(wantRule, cu1.Units[1].Trigger); diff != "" {
		t.Errorf("rule evidence (-want +got):\n%s", diff)
	}
	if cu1.Units[1].Active || cu1.Units[2].Active || !cu1.Units[0].Active {
		t.Errorf("iteration 1 activity = %s", mustJSON(t, cu1.Units))
	}
	// Iteration 2: the on-tool-return unit fired because of c1.
	cu2 := valueAt[state.ContextUnits](t, rec, "context#5", "contextUnits")
	if !cu2.Units[2].Active || len(cu2.Units[2].Trigger.Matches) != 1 || cu2.Units[2].Trigger.Matches[0].ToolCallID != "c1" {
		t.Errorf("on-tool-return entry = %s", mustJSON(t, cu2.Units[2]))
	}
	if cu2.Units[2].Placed == nil || cu2.Units[2].Placed.Position != 1 {
		t.Errorf("placement = %+v", cu2.Units[2].Placed)
	}
	ev := log.of(event.ContextEvaluated)
	if len(ev) != 2 || ev[0].Payload.(event.ContextEvaluatedPayload).InactiveCount != 2 {
		t.Errorf("context.evaluated = %+v", ev)
	}

	// LANDED: each placed unit has a span whose unescaped bytes are its text.
	lr := valueAt[state.LLMRequest](t, rec, "call-llm#6", "llmRequest")
	body, ok := rec.Blob(lr.Request.Blob)
	if !ok {
		t.Fatal("request blob missing")
	}
	if h := sha256.Sum256(body); hex.EncodeToString(h[:]) != lr.Request.Sha256 || lr.Request.Bytes != len(body) {
		t.Error("request hash does not match the stored bytes")
	}
	texts := map[string]string{"refund-window": fact.Definition().Text, "after-status": "Status data can lag by a minute."}
	found := 0
	for _, sp := range lr.Spans {
		want, ok := texts[sp.Unit]
		if !ok {
			continue
		}
		found++
		var got string
		if err := json.Unmarshal([]byte(`"`+string(body[sp.Start:sp.End])+`"`), &got); err != nil || got != want {
			t.Errorf("span of %s unescapes to %q (%v)", sp.Unit, got, err)
		}
	}
	if found != 2 {
		t.Errorf("spans found for %d units, want 2: %+v", found, lr.Spans)
	}
	var sawTool, sawHistory bool
	for _, sp := range lr.Spans {
		sawTool = sawTool || sp.Unit == "tool/service_status" && sp.Kind == llm.SpanToolSchema
		sawHistory = sawHistory || sp.Unit == "history/0" && sp.Kind == llm.SpanMessage
	}
	if !sawTool || !sawHistory {
		t.Errorf("tool span %v, history span %v", sawTool, sawHistory)
	}
}

func TestCaptureHashOnly(t *testing.T) {
	p := scripted.New(scripted.Reply{Content: "ok"})
	a, err := agent.New(p, agent.WithCapture(record.CaptureHashOnly))
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Run(context.Background(), agent.Input{Message: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	lr := valueAt[state.LLMRequest](t, res.Record, "call-llm#2", "llmRequest")
	if lr.Request.Stored != "hash-only" || lr.Request.Blob != "" || lr.Request.Sha256 == "" || len(lr.Spans) == 0 {
		t.Errorf("llmRequest = %s", mustJSON(t, lr))
	}
	if n := len(res.Record.Blobs); n != 0 {
		t.Errorf("hash-only record keeps %d blobs", n)
	}
	if _, err := agent.New(p, agent.WithCapture("everything")); err == nil {
		t.Error("unknown capture policy accepted")
	}
}

func TestRecordJSONRoundTrip(t *testing.T) {
	p := scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{call("c1", "service_status", `{"service":"checkout"}`)}},
		scripted.Reply{Content: "Checkout is degraded."},
	)
	a, _ := agent.New(p, agent.WithTools(statusTool(t, nil)), agent.WithID("triage"))
	res, err := a.Run(context.Background(), agent.Input{Message: "What is broken?"})
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
	b2, err := json.Marshal(back)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != string(b2) {
		i := 0
		for i < len(b) && i < len(b2) && b[i] == b2[i] {
			i++
		}
		lo := max(0, i-150)
		t.Errorf("record JSON is not byte-identical after decode and re-encode at %d:\n%s\n%s", i, b[lo:min(len(b), i+80)], b2[lo:min(len(b2), i+80)])
	}
	if got := valueAt[string](t, back, "prepare-final#8", "finalContent"); got != "Checkout is degraded." {
		t.Errorf("finalContent after decode = %q", got)
	}
	m := back.Manifest
	if !m.Complete || m.AgentID != "triage" || m.Provider != "scripted" || back.Events.Len() == 0 {
		t.Errorf("manifest = %+v, %d events", m, back.Events.Len())
	}
	if err := back.Log.Validate(); err != nil {
		t.Errorf("decoded log invalid: %v", err)
	}
	// ElementBirth: the history's elements were born in seed, call-llm, tool-calls.
	var births []string
	for i := 0; i < 4; i++ {
		c, ok, err := flow.ElementBirth(back.Log, "history", i, len(back.Log.Commits)-1)
		if err != nil || !ok {
			t.Fatalf("birth of history[%d]: %v %v", i, ok, err)
		}
		births = append(births, back.Log.Commits[c].RuntimeStageID)
	}
	if diff := cmp.Diff([]string{"seed#0", "call-llm#2", "tool-calls#4", "call-llm#6"}, births); diff != "" {
		t.Errorf("births (-want +got):\n%s", diff)
	}
	if _, err := record.Decode([]byte(`{"format":"other/1"}`)); err == nil {
		t.Error("foreign format accepted")
	}
}

// TestUnitRefusals: a malformed unit is refused by its constructor, and a
// duplicate id or a nil unit by New, each naming what is wrong.
func TestUnitRefusals(t *testing.T) {
	errOf := func(_ *inject.Unit, err error) error { return err }
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"bad id", errOf(inject.Fact("Bad Id", "x")), `"Bad Id"`},
		{"empty text", errOf(inject.Fact("a", "")), "text is empty"},
		{"nil rule", errOf(inject.Instruction("a", "x", inject.Rule{Label: "l"})), "predicate"},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to mention %s", tc.name, tc.err, tc.want)
		}
	}
	p := scripted.New()
	for _, tc := range []struct {
		name  string
		units []*inject.Unit
		want  string
	}{
		{"duplicate", []*inject.Unit{inject.Must(inject.Fact("a", "x")), inject.Must(inject.Steering("a", "y"))}, `"a" is already used`},
		{"nil unit", []*inject.Unit{nil}, "units[0] is nil"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := agent.New(p, agent.WithUnits(tc.units...))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to mention %s", err, tc.want)
			}
		})
	}
}

func TestLargeUnitIsABlob(t *testing.T) {
	big := strings.Repeat("runbook line. ", 400) // 5 600 bytes
	p := scripted.New(scripted.Reply{Content: "ok"})
	a, err := agent.New(p, agent.WithUnits(inject.Must(inject.Fact("runbook", big)), inject.Must(inject.Fact("small", "short"))))
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Run(context.Background(), agent.Input{Message: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	cat := valueAt[[]inject.CatalogEntry](t, res.Record, "seed#0", "contextCatalog")
	if cat[0].Content != "" || cat[0].ContentRef == "" || cat[1].Content != "short" || cat[1].ContentRef != "" {
		t.Fatalf("catalog = %+v / %+v", cat[0].ContentRef, cat[1])
	}
	b, ok := res.Record.Blob(cat[0].ContentRef)
	if !ok || string(b) != big || cat[0].ContentRef != cat[0].ContentHash {
		t.Errorf("blob %v, ref %s, hash %s", ok, cat[0].ContentRef, cat[0].ContentHash)
	}
}
