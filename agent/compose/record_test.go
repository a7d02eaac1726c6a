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
		t.Helper()
		b, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		back, err := record.Decode(b)
		if err != nil {
			t.Fatal(err)
		}
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
	oback := decoded(t, ores.Record)
	check(t, "decoded agent tool", oback, 2+4)
	tsub, ok := oback.Inner("q1")
	if !ok {
		t.Fatal("no inner record under the tool-call id q1")
	}
	check(t, "agent tool's inner record", tsub, 4)
	b, err := json.Marshal(ores.Record)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := json.Marshal(oback); string(again) != string(b) {
		t.Error("the decoded agent tool record does not encode back to its bytes")
	}

	// Written before agentToolRuns, the same record kept the inner log
	// among the subflows; it decodes, and encodes in today's form.
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		t.Fatal(err)
	}
	var runs []struct {
		At  []string        `json:"at"`
		Log json.RawMessage `json:"log"`
	}
	if err := json.Unmarshal(top["agentToolRuns"], &runs); err != nil || len(runs) != 1 || len(runs[0].At) != 1 || runs[0].At[0] != "q1" {
		t.Fatalf("agentToolRuns = %s (%v), want the one run at [q1]", top["agentToolRuns"], err)
	}
	subflows := map[string]json.RawMessage{}
	if raw, ok := top["subflows"]; ok {
		if err := json.Unmarshal(raw, &subflows); err != nil {
			t.Fatal(err)
		}
	}
	subflows["q1"] = runs[0].Log
	top["subflows"], _ = json.Marshal(subflows)
	delete(top, "agentToolRuns")
	old, _ := json.Marshal(top)
	fromOld, err := record.Decode(old)
	if err != nil {
		t.Fatalf("a record with the agent tool's log among its subflows: %v", err)
	}
	check(t, "agent tool record in the earlier form", fromOld, 2+4)
	if _, ok := fromOld.Inner("q1"); !ok {
		t.Error("the earlier form lost the inner record under q1")
	}
}
