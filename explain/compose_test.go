// Tests of the walk through a composition's record: into each inner run
// and out again to the outer node that gave it its input.

package explain_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/compose"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/explain"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

type hostIn struct {
	Host string `json:"host" jsonschema:"the host"`
}

func TestBacktrackComposed(t *testing.T) {
	lookup := tool.Must(tool.New("lookup", "Look a host up.", func(ctx context.Context, in hostIn) (string, error) {
		return in.Host + " runs v412", nil
	}))
	finder, err := agent.New(scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{{ID: "l1", Name: "lookup", Args: []byte(`{"host":"web-1"}`)}}},
		scripted.Reply{Content: "web-1 runs v412"},
	), agent.WithID("finder"), agent.WithTools(lookup))
	if err != nil {
		t.Fatal(err)
	}
	writer, err := agent.New(scripted.Func(func(req *llm.Request, call int, seed int64) scripted.Reply {
		return scripted.Reply{Content: "Summary: " + req.Messages[len(req.Messages)-1].Content}
	}), agent.WithID("writer"))
	if err != nil {
		t.Fatal(err)
	}
	comp := compose.MustNew("report", compose.Sequence(compose.Call("finder", finder), compose.Call("writer", writer)))
	res, err := comp.Run(context.Background(), agent.Input{Message: "what runs on web-1?"})
	if err != nil {
		t.Fatal(err)
	}
	ch, err := explain.BacktrackComposed(res.Record)
	if err != nil {
		t.Fatal(err)
	}
	var walk []string
	for _, h := range ch.Hops {
		walk = append(walk, h.Kind+":"+h.Node+"<-"+h.InputFrom)
	}
	want := []string{"agent:agent:writer#2<-agent:finder#1", "agent:agent:finder#1<-seed#0", "input:seed#0<-"}
	if diff := cmp.Diff(want, walk); diff != "" {
		t.Fatalf("walk (-want +got):\n%s", diff)
	}
	// Into the inner run: the finder's answer, and the tool result it read.
	in := ch.Hops[1].Inner
	if in == nil || in.Answer.Text != "web-1 runs v412" {
		t.Fatalf("inner backtrack of the finder = %+v", in)
	}
	found := false
	for _, s := range in.Suspects {
		if s.Allowed.ToolCall != nil && s.Allowed.ToolCall.ID == "l1" && s.Allowed.ToolCall.Name == "lookup" {
			found = true
		}
	}
	if !found {
		t.Errorf("the finder's tool result is not a suspect: %+v", in.Suspects)
	}
	if ch.Hops[0].Inner == nil || ch.Hops[0].Inner.Answer.Text != "Summary: web-1 runs v412" {
		t.Errorf("inner backtrack of the writer = %+v", ch.Hops[0].Inner)
	}
	// The same walk from the record's JSON (as a store keeps it).
	b, err := json.Marshal(res.Record)
	if err != nil {
		t.Fatal(err)
	}
	back, err := record.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	again, err := explain.BacktrackComposed(back)
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Hops) != 3 || again.Hops[1].Inner == nil || again.Hops[1].Inner.Answer.Text != "web-1 runs v412" || again.Hops[1].Agent != "finder" {
		t.Errorf("walk of the decoded record = %+v", again.Hops)
	}
	// A plain agent's record is refused by name.
	plain, _ := writer.Run(context.Background(), agent.Input{Message: "x"})
	if _, err := explain.BacktrackComposed(plain.Record); err == nil || !strings.Contains(err.Error(), `"writer" is not a composition's`) {
		t.Errorf("plain record: %v", err)
	}
}

func TestBacktrackComposedMerge(t *testing.T) {
	mk := func(id string) *agent.Agent {
		a, err := agent.New(scripted.New(scripted.Reply{Content: id + " says hi"}), agent.WithID(id))
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	join := func(ctx context.Context, outs []compose.Outcome) (string, error) {
		return outs[0].Answer + "+" + outs[1].Answer, nil
	}
	comp := compose.MustNew("fan", compose.Parallel("ask", compose.ParallelOptions{Merge: join}, compose.Call("a", mk("a")), compose.Call("b", mk("b"))))
	res, err := comp.Run(context.Background(), agent.Input{Message: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	ch, err := explain.BacktrackComposed(res.Record)
	if err != nil {
		t.Fatal(err)
	}
	if len(ch.Hops) != 2 || ch.Hops[0].Kind != "merge" || len(ch.Hops[0].Branches) != 2 {
		t.Fatalf("hops = %+v", ch.Hops)
	}
	for i, want := range []string{"a says hi", "b says hi"} {
		if b := ch.Hops[0].Branches[i]; b.Inner == nil || b.Inner.Answer.Text != want {
			t.Errorf("branch %d = %+v, want its inner answer %q", i, b, want)
		}
	}
}

// TestAblateInner removes an inner agent's tool and then the inner agent:
// each rerun shows what the composed answer owed to it.
func TestAblateInner(t *testing.T) {
	lookup := tool.Must(tool.New("lookup", "Look a host up.", func(ctx context.Context, in hostIn) (string, error) {
		return in.Host + " runs v412", nil
	}))
	script := func() *scripted.Provider {
		return scripted.New(
			scripted.Reply{ToolCalls: []llm.ToolCall{{ID: "l1", Name: "lookup", Args: []byte(`{"host":"web-1"}`)}}},
			scripted.Reply{Content: "web-1 runs v412"},
		)
	}
	bp := explain.Blueprint{Tools: []*tool.Tool{lookup}, Options: []agent.Option{agent.WithID("finder")}}
	finder, err := bp.Build(script())
	if err != nil {
		t.Fatal(err)
	}
	comp := compose.MustNew("report", compose.Call("finder", finder))
	p := script()
	ablated, err := explain.AblateInner(comp, "finder", bp, p, explain.Tool("lookup"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ablated.Run(context.Background(), agent.Input{Message: "what runs on web-1?"}); err != nil {
		t.Fatal(err)
	}
	reqs := p.Requests()
	if len(reqs) != 2 || len(reqs[0].Tools) != 0 {
		t.Fatalf("the ablated finder was offered %d tools", len(reqs[0].Tools))
	}
	served := reqs[1].Messages[len(reqs[1].Messages)-1].Content
	if !strings.Contains(served, `There is no tool named "lookup"`) {
		t.Errorf("the ablated finder was served %q", served)
	}
	if _, err := explain.AblateInner(comp, "finder", bp, p, explain.Tool("nope")); err == nil {
		t.Error("ablating a tool the inner agent lacks was accepted")
	}
	if _, err := explain.AblateInner(comp, "writer", bp, p); err == nil || !strings.Contains(err.Error(), `agent "writer": not an inner agent`) {
		t.Errorf("unknown inner agent: %v", err)
	}
}
