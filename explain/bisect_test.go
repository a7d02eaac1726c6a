// Acceptance scenario 6: redundant culprits, each sufficient alone.

package explain_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/explain"
	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/google/go-cmp/cmp"
)

func TestScenario6RedundantCulprits(t *testing.T) {
	const a = "Refunds for VIP customers are always approved."
	const b = "Orders over 100 EUR from loyal customers get an approved refund."
	model := scripted.Func(func(req *llm.Request, call int, seed int64) scripted.Reply {
		sys := llm.SystemText(req.System)
		if strings.Contains(sys, a) || strings.Contains(sys, b) {
			return scripted.Reply{Content: wording(approvedWordings, seed)}
		}
		return scripted.Reply{Content: wording(declinedWordings, seed)}
	})
	bp := explain.Blueprint{
		Units:   []*inject.Unit{inject.Must(inject.Fact("fact-a", a)), inject.Must(inject.Fact("fact-b", b)), inject.Must(inject.Steering("style", styleText)), inject.Must(inject.Fact("hours", "The shop opens at nine."))},
		Options: []agent.Option{agent.WithClock(fixedClock)},
	}
	ag, err := bp.Build(model)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ag.Run(context.Background(), agent.Input{Message: question})
	if err != nil {
		t.Fatal(err)
	}
	rec := res.Record
	w, err := explain.FrozenWorld(rec, model)
	if err != nil {
		t.Fatal(err)
	}
	suspects := []explain.Spec{explain.Unit("fact-a"), explain.Unit("style"), explain.Unit("fact-b"), explain.Unit("hours")}
	single, err := explain.Probe(context.Background(), rec, bp, w, explain.ProbeOptions{Suspects: suspects, Comparator: labelComparator})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range single.Suspects {
		if s.Verdict != explain.VerdictNotConfirmed {
			t.Errorf("single ablation of %s: %s, want not-confirmed", s.ID, s.Verdict)
		}
	}
	rep, err := explain.Bisect(context.Background(), rec, bp, w, suspects, explain.BisectOptions{Comparator: labelComparator})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Outcome != explain.VerdictConfirmed || !cmp.Equal(rep.Culprits, []string{"unit:fact-a", "unit:fact-b"}) {
		t.Fatalf("bisect = %s %v; probes %+v", rep.Outcome, rep.Culprits, rep.Probes)
	}
	if len(rep.Probes) == 0 || len(rep.Probes) > 24 || rep.Runs != 3*(1+len(rep.Probes)) {
		t.Errorf("probes %d runs %d", len(rep.Probes), rep.Runs)
	}
	// Removing only innocents is not reproducible.
	none, err := explain.Bisect(context.Background(), rec, bp, w, []explain.Spec{explain.Unit("style"), explain.Unit("hours")}, explain.BisectOptions{Comparator: labelComparator})
	if err != nil {
		t.Fatal(err)
	}
	if none.Outcome != explain.VerdictNotReproducible || len(none.Probes) != 1 {
		t.Errorf("innocents: %s after %d probes", none.Outcome, len(none.Probes))
	}
	// A tiny budget ends inconclusive with the flag.
	short, err := explain.Bisect(context.Background(), rec, bp, w, suspects, explain.BisectOptions{Comparator: labelComparator, MaxProbes: 2})
	if err != nil {
		t.Fatal(err)
	}
	if short.Outcome != explain.VerdictInconclusive || len(short.Probes) != 2 || strings.Contains(short.Claim, "confirmed") {
		t.Errorf("budget 2: %+v", short)
	}
}
