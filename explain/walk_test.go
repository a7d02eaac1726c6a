// Acceptance scenario 10: a misleading instruction in loop 1 makes the model
// call the wrong tool; the walk descends from that tool's output to the
// instruction and convicts it (root ≠ proximate).

package explain_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/explain"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

const promoHint = "Before answering a refund question, check current promotions with get_promo."

type promoIn struct{}

func TestScenario10WalkToRoot(t *testing.T) {
	model := scripted.Func(func(req *llm.Request, call int, seed int64) scripted.Reply {
		var promo, looked bool
		for _, m := range req.Messages {
			if m.Role == llm.RoleTool {
				looked = true
				promo = promo || m.ToolName == "get_promo"
			}
		}
		switch {
		case promo:
			return scripted.Reply{Content: []string{
				"APPROVED: spring promo refund credit applied to order A-17.",
				"APPROVED. The spring promo grants a refund credit for A-17.",
				"APPROVED — spring promo refund credit on A-17."}[seed%3]}
		case looked:
			return scripted.Reply{Content: wording(declinedWordings, seed)}
		}
		offered := map[string]bool{}
		for _, tl := range req.Tools {
			offered[tl.Name] = true
		}
		if strings.Contains(llm.SystemText(req.System), "get_promo") && offered["get_promo"] {
			return scripted.Reply{ToolCalls: []llm.ToolCall{{Name: "get_promo", Args: []byte(`{}`)}}}
		}
		return scripted.Reply{ToolCalls: []llm.ToolCall{{Name: "lookup_order", Args: []byte(`{"orderId":"A-17"}`)}}}
	})
	var lookups, promos atomic.Int64
	getPromo := tool.Must(tool.New("get_promo", "List the current promotions.", func(ctx context.Context, in promoIn) (string, error) {
		promos.Add(1)
		return "Spring promo: refund credit approved on every order, A-17 included.", nil
	}))
	hint := inject.Must(inject.Instruction("promo-hint", promoHint, inject.Rule{Label: "first iteration", When: func(r flow.Reader) bool {
		v, _ := r.Get("iteration")
		n, _ := v.(int)
		return n == 1
	}}))
	bp := explain.Blueprint{
		Units:   []*inject.Unit{hint, inject.Must(inject.Steering("style", styleText)), inject.Must(inject.Fact("hours", "The shop opens at nine."))},
		Tools:   []*tool.Tool{lookupTool(t, &lookups), getPromo},
		Options: []agent.Option{agent.WithClock(fixedClock)},
	}
	a, err := bp.Build(model)
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Run(context.Background(), agent.Input{Message: question})
	if err != nil {
		t.Fatal(err)
	}
	rec := res.Record
	ranked, err := explain.Rank(rec, explain.Target{})
	if err != nil {
		t.Fatal(err)
	}
	if ranked[0].ID != "history/2" {
		t.Fatalf("ranking %+v, want the promo output first", ranked)
	}
	w, err := explain.FrozenWorld(rec, model)
	if err != nil {
		t.Fatal(err)
	}
	recorded := promos.Load() + lookups.Load()
	rep, err := explain.WalkToRoot(context.Background(), rec, bp, w, "history/2", explain.WalkOptions{Comparator: labelComparator})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Root != "promo-hint" || rep.Stop != "" {
		t.Fatalf("walk = root %q stop %q hops %+v", rep.Root, rep.Stop, rep.Hops)
	}
	first := rep.Hops[0]
	if first.Suspect != "history/2" || first.Removed != "tool:get_promo" || first.Verdict != explain.VerdictConfirmed ||
		!strings.HasPrefix(first.Landed, "tool-calls#") || !strings.HasPrefix(first.AskedBy, "call-llm#") {
		t.Errorf("proximate hop = %+v", first)
	}
	var root explain.WalkHop
	for _, h := range rep.Hops {
		if h.Suspect == "promo-hint" {
			root = h
		}
	}
	if root.Depth != 1 || root.Call != first.AskedBy || root.Verdict != explain.VerdictConfirmed {
		t.Errorf("root hop = %+v, want depth 1 under %s, confirmed", root, first.AskedBy)
	}
	if got := promos.Load() + lookups.Load() - recorded; got != 0 {
		t.Errorf("tools ran live %d times during the walk", got)
	}
	if _, err := explain.WalkToRoot(context.Background(), rec, bp, w, "promo-hint", explain.WalkOptions{}); err == nil {
		t.Error("a unit was accepted as the start of a walk")
	}
}
