// A composition's record names each inner agent's tool results by the
// message of the inner history that holds them (record format 3), and
// decodes back to the live record's blobs and events.

package compose_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/compose"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/agent/state"
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
