// Acceptance scenarios 2 and 3: ablation in a frozen world with a
// seed-sensitive model, and an unstable baseline.

package explain_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/explain"
)

func TestScenario2AblationConfirmsCulprit(t *testing.T) {
	r := newRefunds(t)
	rec := r.run(t, refundsModel(false))
	recorded := r.live.Load()
	model := refundsModel(false)
	w, err := explain.FrozenWorld(rec, model)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := explain.Probe(context.Background(), rec, r.bp, w, explain.ProbeOptions{
		Samples:    3,
		Suspects:   []explain.Spec{explain.Unit("vip-override"), explain.Unit("style"), explain.Tool("lookup_order")},
		Comparator: labelComparator,
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.live.Load() - recorded; got != 0 {
		t.Errorf("lookup_order executed live %d times during the probes, want 0 (frozen)", got)
	}
	if rep.Runs != (1+3)*3 || model.Calls() == 0 {
		t.Errorf("runs = %d, want 12", rep.Runs)
	}
	if rep.Mode != "causal" || rep.Baseline.Flips != 0 || rep.Baseline.Samples != 3 {
		t.Errorf("mode %q baseline %+v", rep.Mode, rep.Baseline)
	}
	if slices.Contains(rep.Flags, "samples-identical") || rep.Baseline.DistinctSamples != 3 {
		t.Errorf("flags %v distinct %d: the seeds must vary the wording", rep.Flags, rep.Baseline.DistinctSamples)
	}
	if rep.Baseline.Similarity.Stdev <= 0 {
		t.Errorf("baseline similarity stdev = %v, want > 0", rep.Baseline.Similarity.Stdev)
	}
	want := map[string]struct {
		verdict string
		flips   int
	}{
		"vip-override": {explain.VerdictConfirmed, 3},
		"style":        {explain.VerdictNotConfirmed, 0},
		"lookup_order": {explain.VerdictNotConfirmed, 0},
	}
	for _, s := range rep.Suspects {
		w := want[s.ID]
		if s.Verdict != w.verdict || s.Flips != w.flips || s.Samples != 3 {
			t.Errorf("%s: verdict %s %d/%d, want %s %d/3", s.ID, s.Verdict, s.Flips, s.Samples, w.verdict, w.flips)
		}
		if s.DivergedRuns != 0 || s.LiveCalls != 0 {
			t.Errorf("%s: diverged %d live %d, want 0 0", s.ID, s.DivergedRuns, s.LiveCalls)
		}
		confirmedWords := strings.Contains(s.Claim, "confirmed") || strings.Contains(s.Claim, "causal")
		if confirmedWords != (s.Verdict == explain.VerdictConfirmed) {
			t.Errorf("%s: claim %q vs verdict %s", s.ID, s.Claim, s.Verdict)
		}
		if !strings.Contains(s.Claim, "3/3") && !strings.Contains(s.Claim, "0/3") {
			t.Errorf("%s: claim %q names no k/N", s.ID, s.Claim)
		}
	}
	if rep.Suspects[0].Wilson95[0] < 0.4 || rep.Suspects[0].Wilson95[1] != 1 {
		t.Errorf("wilson95 for 3/3 = %v", rep.Suspects[0].Wilson95)
	}
	b, err := json.Marshal(rep)
	if err != nil || !strings.HasPrefix(string(b), `{"format":"agentfootprint-go.ablation/1","mode":"causal"`) {
		t.Errorf("report JSON = %s (%v)", b, err)
	}
}

func TestScenario3UnstableBaselineIsInconclusive(t *testing.T) {
	r := newRefunds(t)
	rec := r.run(t, refundsModel(true)) // seed 0: stable answer recorded
	w, err := explain.FrozenWorld(rec, refundsModel(true))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := explain.Probe(context.Background(), rec, r.bp, w, explain.ProbeOptions{
		Suspects:   []explain.Spec{explain.Unit("vip-override"), explain.Unit("style"), explain.Tool("lookup_order")},
		Comparator: labelComparator,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(rep.Flags, "baseline-unstable") || rep.Baseline.Flips == 0 {
		t.Fatalf("flags %v baseline %+v, want baseline-unstable", rep.Flags, rep.Baseline)
	}
	for _, s := range rep.Suspects {
		if s.Verdict != explain.VerdictInconclusive {
			t.Errorf("%s: verdict %s, want inconclusive", s.ID, s.Verdict)
		}
		if strings.Contains(s.Claim, "confirmed") || strings.Contains(s.Claim, "causal") {
			t.Errorf("%s: claim %q carries a stamp", s.ID, s.Claim)
		}
	}
}

func TestProbeRefusals(t *testing.T) {
	r := newRefunds(t)
	rec := r.run(t, refundsModel(false))
	w, err := explain.FrozenWorld(rec, refundsModel(false))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	_, err = explain.Probe(ctx, rec, r.bp, w, explain.ProbeOptions{Suspects: []explain.Spec{explain.Unit("nope")}})
	var unknown *explain.UnknownSpecError
	if !asError(err, &unknown) || !strings.Contains(err.Error(), "unit:vip-override") {
		t.Errorf("unknown unit: err = %v, want the removable ids listed", err)
	}
	if _, err := explain.Probe(ctx, rec, r.bp, w, explain.ProbeOptions{Samples: 1}); err == nil {
		t.Error("Samples 1 was accepted")
	}
	// Forcing a history message pins it with an extra agent option.
	pinned, err := explain.Ablate(r.bp, explain.Force("history/0"))
	if err != nil || len(pinned.Options) != len(r.bp.Options)+1 || len(pinned.Units) != len(r.bp.Units) {
		t.Errorf("Ablate(Force(history/0)) = %d options, %d units, err %v; want one option more", len(pinned.Options), len(pinned.Units), err)
	}
	// This run continued no conversation: no earlier message can be forced.
	_, err = explain.Probe(ctx, rec, r.bp, w, explain.ProbeOptions{Suspects: []explain.Spec{explain.Force("history/0")}})
	if err == nil || !strings.Contains(err.Error(), "force:history/0: the run's earlier conversation has 0 messages") {
		t.Errorf("forcing a message the run never had: err = %v", err)
	}
}
