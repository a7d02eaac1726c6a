package explain_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/explain"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool/toolrun"
)

// exampleModel approves when the system prompt carries the override and
// varies its wording with the seed.
func exampleModel() *scripted.Provider {
	return scripted.Func(func(req *llm.Request, call int, seed int64) scripted.Reply {
		if strings.Contains(llm.SystemText(req.System), "VIP override") {
			return scripted.Reply{Content: []string{"APPROVED: VIP override.", "APPROVED under the VIP override.", "APPROVED (VIP)."}[seed%3]}
		}
		return scripted.Reply{Content: "DECLINED: the refund window has passed."}
	})
}

func exampleBlueprint() explain.Blueprint {
	return explain.Blueprint{Units: []*inject.Unit{
		inject.Must(inject.Fact("vip-override", "VIP override: every VIP refund is approved.")),
		inject.Must(inject.Steering("style", "Answer in one sentence.")),
	}}
}

func exampleRecord() *record.Record {
	a, _ := exampleBlueprint().Build(exampleModel())
	res, _ := a.Run(context.Background(), agent.Input{Message: "Refund order A-17?"})
	return res.Record
}

func ExampleBacktrack() {
	rec := exampleRecord()
	ch, err := explain.Backtrack(rec, explain.Target{})
	if err != nil {
		fmt.Println(err)
		return
	}
	s := ch.Suspects[0]
	fmt.Println("answer:", ch.Answer.Step, "via", ch.Answer.Via)
	fmt.Println("top suspect:", s.Unit, "kind", s.Born.Kind)
	fmt.Println("landed:", s.Landed.Step, s.Landed.Slot, s.Landed.Span != nil)
	fmt.Println("allowed:", s.Allowed.Trigger.Kind)
	// Output:
	// answer: call-llm#2 via prepare-final#4
	// top suspect: vip-override kind fact
	// landed: context#1 system true
	// allowed: always
}

func ExampleRankingConfidence() {
	conf := explain.RankingConfidence([]explain.Ranked{
		{ID: "policy-a", Score: 0.41}, {ID: "policy-b", Score: 0.40}, {ID: "style", Score: 0.05},
	})
	fmt.Println(conf.ClearWinner, conf.Shortlist)
	// Output: false [policy-a policy-b]
}

func ExampleMissingContext() {
	rec := exampleRecord()
	m, err := explain.MissingContext(rec, explain.Target{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(m.Dropped), len(m.Inactive), m.AvailableCount, m.SentCount)
	// Output: 0 0 3 3
}

func ExampleProbe() {
	rec := exampleRecord()
	world, err := explain.FrozenWorld(rec, exampleModel())
	if err != nil {
		fmt.Println(err)
		return
	}
	firstWord := func(s string) string { return strings.Fields(s)[0] }
	rep, err := explain.Probe(context.Background(), rec, exampleBlueprint(), world, explain.ProbeOptions{
		Suspects: []explain.Spec{explain.Unit("vip-override"), explain.Unit("style")},
		Comparator: func(a, b string) bool {
			return strings.TrimRight(firstWord(a), ":") != strings.TrimRight(firstWord(b), ":")
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range rep.Suspects {
		fmt.Printf("%s %s %d/%d\n", s.ID, s.Verdict, s.Flips, s.Samples)
	}
	fmt.Println(rep.Mode, rep.Runs, "runs")
	// Output:
	// vip-override confirmed 3/3
	// style not-confirmed 0/3
	// causal 9 runs
}

func ExampleSlice() {
	rec := exampleRecord()
	sl, err := explain.Slice(rec.Log, "prepare-final#4", flow.SliceOptions{Keys: []string{"llmLatestContent"}, MaxDepth: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range sl.Edges {
		fmt.Println(e.From, "→", e.To, e.Kind, e.Key+e.Rule)
	}
	// Output:
	// prepare-final#4 → call-llm#2 data llmLatestContent
	// prepare-final#4 → sf-route#3 control default
}

func ExampleBisect() {
	rec := exampleRecord()
	world, err := explain.FrozenWorld(rec, exampleModel())
	if err != nil {
		fmt.Println(err)
		return
	}
	label := func(s string) string { return strings.TrimRight(strings.Fields(s)[0], ":") }
	rep, err := explain.Bisect(context.Background(), rec, exampleBlueprint(), world,
		[]explain.Spec{explain.Unit("style"), explain.Unit("vip-override")},
		explain.BisectOptions{Comparator: func(a, b string) bool { return label(a) != label(b) }})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rep.Outcome, rep.Culprits, len(rep.Probes), "probes")
	// Output: confirmed [unit:vip-override] 3 probes
}

func ExampleToolpack() {
	tools, err := explain.Toolpack(exampleRecord())
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range tools {
		if t.Name() == "who_wrote" {
			out, _ := toolrun.Execute(context.Background(), t.Declaration(), []byte(`{"key":"finalContent"}`))
			fmt.Println(out.Value)
		}
	}
	// Output: prepare-final#4 (commit 5)
}
