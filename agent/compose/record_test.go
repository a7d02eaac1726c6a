// A composition's record names each inner agent's tool results by the
// message of the inner history that holds them (record format 3), and
// decodes back to the live record's blobs and events.

package compose_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/compose"
	"github.com/agentfootprint/agentfootprint-go/agent/internal/agenttest"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
	"github.com/google/go-cmp/cmp"
)

// pagesTool returns about 2 KB of log lines per page.
func pagesTool() *tool.Tool {
	return tool.Must(tool.New("fetch_logs", "Fetch one page of logs.",
		func(_ context.Context, in struct {
			Page int `json:"page"`
		}) (string, error) {
			return strings.Repeat(fmt.Sprintf("page %d: checkout error rate 12%%, upstream reset\n", in.Page), 40), nil
		}))
}

// TestComposedRecordNamesInnerResults: in a composition, each inner agent's
// tool results live in its subflow's history; the record names them from
// there and decodes to the live record's blobs and events.
func TestComposedRecordNamesInnerResults(t *testing.T) {
	inner := func(id string, page int) *agent.Agent {
		p := scripted.New(
			scripted.Reply{ToolCalls: []llm.ToolCall{call("c1", "fetch_logs", fmt.Sprintf(`{"page":%d}`, page))}},
			scripted.Reply{Content: id + " read its page."})
		return mustNew(t, p, agent.WithTools(pagesTool()), agent.WithID(id))
	}
	comp := compose.MustNew("pipeline", compose.Sequence(compose.Call("one", inner("one", 1)), compose.Call("two", inner("two", 2))))
	res, err := comp.Run(context.Background(), agent.Input{Message: "Read."})
	if err != nil {
		t.Fatal(err)
	}
	live := res.Record
	b, err := json.Marshal(live)
	if err != nil {
		t.Fatal(err)
	}
	for _, page := range []int{1, 2} {
		if n := strings.Count(string(b), fmt.Sprintf("page %d: checkout", page)); n != 40 {
			t.Errorf("page %d's line is written %d times, want 40 (the inner history message only)", page, n)
		}
	}
	back, err := record.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(live.Blobs, back.Blobs); d != "" {
		t.Errorf("blobs (-live +decoded):\n%s", d)
	}
	for i := range live.Events.All() {
		want, _ := json.Marshal(live.Events.At(i))
		got, _ := json.Marshal(back.Events.At(i))
		if string(got) != string(want) {
			t.Errorf("event %d decoded as %s, want %s", i, got, want)
		}
	}
	again, err := json.Marshal(back)
	if err != nil {
		t.Fatal(err)
	}
	if string(again) != string(b) {
		t.Error("the decoded composition record does not encode back to its bytes")
	}
	sub, ok := back.Inner("agent:two#2")
	if !ok {
		t.Fatal("no inner record agent:two#2")
	}
	found := 0
	for _, c := range sub.Log.Commits {
		for _, op := range c.Ops {
			if r, ok := op.Value.(state.ToolResult); ok && op.Key == "lastToolResult" {
				found++
				if out, ok := sub.Blob(r.OutputRef); !ok || !strings.HasPrefix(string(out), "page 2: ") {
					t.Errorf("inner raw output %s: %q, %v", r.OutputRef, out, ok)
				}
			}
		}
	}
	if found != 1 {
		t.Errorf("%d tool results in the inner record, want 1", found)
	}
}

// requestRefs lists the captured request of every model call in log and its
// subflow logs, by run id and runtime stage id.
func requestRefs(log *flow.Record, into map[string]state.CapturedBody, depth int) {
	if log == nil || depth > 8 {
		return
	}
	for _, c := range log.Commits {
		for _, op := range c.Ops {
			if op.Key != state.KeyLLMRequest.KeyName() {
				continue
			}
			switch v := op.Value.(type) {
			case state.LLMRequest:
				into[log.RunID+"/"+c.RuntimeStageID] = v.Request
			case json.RawMessage: // a decoded composition keeps inner values as JSON
				var r state.LLMRequest
				if json.Unmarshal(v, &r) == nil {
					into[log.RunID+"/"+c.RuntimeStageID] = r.Request
				}
			}
		}
	}
	for _, sub := range log.Subflows {
		requestRefs(sub, into, depth+1)
	}
}

// TestComposedRecordRebuildsEveryInnerRequest: an inner agent keeps most of
// its requests as deltas on the one before; the composition's record, the
// same decoded, an inner record read from it, and the record of an agent
// that called another as a tool all rebuild every inner request body to
// the digest that was recorded.
func TestComposedRecordRebuildsEveryInnerRequest(t *testing.T) {
	inner := func(id string) *agent.Agent {
		var rs []scripted.Reply
		for i := range 3 {
			rs = append(rs, scripted.Reply{ToolCalls: []llm.ToolCall{call(fmt.Sprintf("c%d", i), "fetch_logs", fmt.Sprintf(`{"page":%d}`, i))}})
		}
		rs = append(rs, scripted.Reply{Content: id + " read three pages."})
		return mustNew(t, scripted.New(rs...), agent.WithTools(pagesTool()), agent.WithID(id))
	}
	check := func(t *testing.T, name string, rec *record.Record, want int) {
		t.Helper()
		refs := map[string]state.CapturedBody{}
		requestRefs(rec.Log, refs, 0)
		if len(refs) != want {
			t.Errorf("%s: %d model calls recorded, want %d", name, len(refs), want)
		}
		for at, body := range refs {
			b, ok := rec.Blob(body.Blob)
			if !ok {
				t.Errorf("%s: the request of %s (%s) does not rebuild", name, at, body.Blob)
				continue
			}
			if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != body.Sha256 {
				t.Errorf("%s: the request of %s rebuilds to other bytes than were sent", name, at)
			}
		}
	}
	decoded := func(t *testing.T, rec *record.Record) *record.Record {
		back, _ := agenttest.RoundTrip(t, rec)
		return back
	}

	comp := compose.MustNew("pipeline", compose.Sequence(compose.Call("one", inner("one")), compose.Call("two", inner("two"))))
	res, err := comp.Run(context.Background(), agent.Input{Message: "Read."})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Record.Requests) == 0 {
		t.Fatal("the composition record keeps no request delta: the inner requests were all kept whole, so this test checks nothing")
	}
	check(t, "composition", res.Record, 8)
	back := decoded(t, res.Record)
	check(t, "decoded composition", back, 8)
	sub, ok := back.Inner("agent:two#2")
	if !ok {
		t.Fatal("no inner record agent:two#2")
	}
	check(t, "inner record", sub, 4)

	at, err := agent.AsTool("reader", "Reads three pages.", inner("reader"))
	if err != nil {
		t.Fatal(err)
	}
	outer := mustNew(t, scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{call("q1", "reader", `{"question":"Read the pages."}`)}},
		scripted.Reply{Content: "The reader read them."}),
		agent.WithTools(at), agent.WithID("lead"))
	ores, err := outer.Run(context.Background(), agent.Input{Message: "Read."})
	if err != nil {
		t.Fatal(err)
	}
	check(t, "agent tool", ores.Record, 2+4)
	oback, b := agenttest.RoundTrip(t, ores.Record)
	check(t, "decoded agent tool", oback, 2+4)
	tsub, ok := oback.Inner("q1")
	if !ok {
		t.Fatal("no inner record under the tool-call id q1")
	}
	check(t, "agent tool's inner record", tsub, 4)
	if again, _ := json.Marshal(oback); string(again) != string(b) {
		t.Error("the decoded agent tool record does not encode back to its bytes")
	}
}

// answerer is an agent that answers once, with no tool.
func answerer(t *testing.T, id, answer string) *agent.Agent {
	return mustNew(t, scripted.New(scripted.Reply{Content: answer}), agent.WithID(id))
}

// TestNestedAgentToolRecordDecodes: an agent tool whose agent calls an
// agent tool leaves a log attached inside an attached log; the record
// decodes, encodes back to its bytes, and opens at both depths.
func TestNestedAgentToolRecordDecodes(t *testing.T) {
	leaf := tool.Must(agent.AsTool("leaf", "Leaf.", answerer(t, "leaf", "hi")))
	mid := mustNew(t, scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{call("m1", "leaf", `{"question":"hi"}`)}},
		scripted.Reply{Content: "mid done"}), agent.WithID("mid"), agent.WithTools(leaf))
	outer := mustNew(t, scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{call("o1", "mid", `{"question":"go"}`)}},
		scripted.Reply{Content: "outer done"}), agent.WithID("outer"), agent.WithTools(tool.Must(agent.AsTool("mid", "Mid.", mid))))
	res, err := outer.Run(context.Background(), agent.Input{Message: "go"})
	if err != nil {
		t.Fatal(err)
	}
	back, b := agenttest.RoundTrip(t, res.Record)
	if again, _ := json.Marshal(back); string(again) != string(b) {
		t.Error("the decoded record does not encode back to its bytes")
	}
	midRec, ok := back.Inner("o1")
	if !ok {
		t.Fatal("no inner record under o1")
	}
	leafRec, ok := midRec.Inner("m1")
	if !ok {
		t.Fatal("no inner record under o1, then m1")
	}
	if leafRec.Manifest.RunID != "m1" {
		t.Errorf("leaf run id = %q, want m1", leafRec.Manifest.RunID)
	}
	if got := finalAnswer(t, leafRec); got != "hi" {
		t.Errorf("the leaf's answer read from its record = %q, want hi", got)
	}
}

// finalAnswer is the last latest-content value of rec's log.
func finalAnswer(t *testing.T, rec *record.Record) string {
	t.Helper()
	answer := ""
	for _, c := range rec.Log.Commits {
		for _, op := range c.Ops {
			if op.Key == state.KeyLatestContent.KeyName() {
				switch v := op.Value.(type) {
				case string:
					answer = v
				case json.RawMessage:
					json.Unmarshal(v, &answer)
				}
			}
		}
	}
	return answer
}

// TestResumeAfterAnAgentToolCall: a turn that calls an agent tool and then
// pauses on another tool resumes, in the same process and from its
// checkpoint, and the resumed record keeps the agent tool's run.
func TestResumeAfterAnAgentToolCall(t *testing.T) {
	newAgent := func(replies ...scripted.Reply) *agent.Agent {
		reader := tool.Must(agent.AsTool("reader", "Reads.", answerer(t, "reader", "read it")))
		ask := tool.Must(tool.New("ask_approval", "Ask.", func(context.Context, struct{}) (string, error) { return "", tool.Pause("approve?") }))
		return mustNew(t, scripted.New(replies...), agent.WithID("lead"), agent.WithTools(reader, ask))
	}
	ctx := context.Background()
	a := newAgent(
		scripted.Reply{ToolCalls: []llm.ToolCall{call("q1", "reader", `{"question":"A"}`), call("q2", "ask_approval", `{}`)}},
		scripted.Reply{Content: "done"})
	conv := a.NewConversation()
	first, err := conv.Send(ctx, agent.Input{Message: "go"})
	if err != nil || !first.Paused {
		t.Fatalf("first leg: paused %v, err %v; want a pause", first != nil && first.Paused, err)
	}
	saved, err := conv.Checkpoint()
	if err != nil {
		t.Fatal(err)
	}
	res, err := conv.Resume(ctx, json.RawMessage(`"yes"`))
	if err != nil {
		t.Fatalf("resume in the same process: %v", err)
	}
	if res.Answer != "done" || res.Record.Log.Subflows["q1"] == nil {
		t.Errorf("resumed: answer %q, agent tool run kept %v; want done and true", res.Answer, res.Record.Log.Subflows["q1"] != nil)
	}
	// Another process: its model has only the answer left to give.
	b := newAgent(scripted.Reply{Content: "done"})
	loaded, err := b.LoadConversation(saved)
	if err != nil {
		t.Fatalf("load the checkpoint: %v", err)
	}
	res2, err := loaded.Resume(ctx, json.RawMessage(`"yes"`))
	if err != nil {
		t.Fatalf("resume from the checkpoint: %v", err)
	}
	if res2.Answer != "done" || res2.Record.Log.Subflows["q1"] == nil {
		t.Errorf("resumed from the checkpoint: answer %q, agent tool run kept %v; want done and true", res2.Answer, res2.Record.Log.Subflows["q1"] != nil)
	}
}

// TestDecodedInnerRecordIsTyped: in a decoded composition whose inner agent
// called an agent tool, the inner record is typed again, so its request
// spans resolve as they do live.
func TestDecodedInnerRecordIsTyped(t *testing.T) {
	reader := tool.Must(agent.AsTool("reader", "Reads.", answerer(t, "reader", "read it")))
	lead := mustNew(t, scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{call("q1", "reader", `{"question":"A"}`)}},
		scripted.Reply{ToolCalls: []llm.ToolCall{call("q2", "fetch_logs", `{"page":1}`)}},
		scripted.Reply{Content: "done"}), agent.WithID("lead"), agent.WithTools(reader, pagesTool()),
		agent.WithSystemPrompt(strings.Repeat("Be careful. ", 30)))
	res, err := compose.MustNew("c", compose.Sequence(compose.Call("lead", lead))).Run(context.Background(), agent.Input{Message: "go"})
	if err != nil {
		t.Fatal(err)
	}
	back, _ := agenttest.RoundTrip(t, res.Record)
	spans := func(rec *record.Record) []llm.Span {
		in, ok := rec.Inner("agent:lead#1")
		if !ok {
			t.Fatal("no inner record agent:lead#1")
		}
		var last state.LLMRequest
		n := 0
		for _, c := range in.Log.Commits {
			for _, op := range c.Ops {
				if v, ok := op.Value.(state.LLMRequest); ok && op.Key == state.KeyLLMRequest.KeyName() {
					last, n = v, n+1
				}
			}
		}
		if n != 3 {
			t.Fatalf("%d typed model calls in the inner record, want 3", n)
		}
		return in.RequestSpans(last)
	}
	live, decoded := spans(res.Record), spans(back)
	if d := cmp.Diff(live, decoded); d != "" || len(live) == 0 {
		t.Errorf("last request's spans (-live +decoded):\n%s", d)
	}
}
