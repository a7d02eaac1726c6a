// Tests of the in-memory index, the picker's drops as recorded by a real
// turn, ablation of one passage, and memory walk-back.

package retrieval_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	"github.com/agentfootprint/agentfootprint-go/explain"
	"github.com/agentfootprint/agentfootprint-go/honesty/assess"
	"github.com/agentfootprint/agentfootprint-go/inject"
	assessfold "github.com/agentfootprint/agentfootprint-go/internal/honesty/assess"
	"github.com/agentfootprint/agentfootprint-go/internal/retrievalcov"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/retrieval"
	"github.com/agentfootprint/agentfootprint-go/retrieval/indextest"
	"github.com/agentfootprint/agentfootprint-go/store/sqlite"
	"github.com/google/go-cmp/cmp"
)

func TestMemoryIndexConformance(t *testing.T) {
	indextest.Run(t, func(t *testing.T, corpus string, dims int) retrieval.Index {
		idx, err := retrieval.NewMemoryIndex(dims)
		if err != nil {
			t.Fatal(err)
		}
		return idx
	})
}

func TestMemoryWalkBackSQLiteStore(t *testing.T) {
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "runs.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	idx, _ := retrieval.NewMemoryIndex(64)
	indextest.MemoryWalkBack(t, idx, st)
}

var runbook = []retrieval.Passage{
	{ID: "refund-window", Source: "policy.md#refunds", Text: "The refund window is 30 days from delivery."},
	{ID: "refund-method", Source: "policy.md#refunds", Text: "Refunds go back to the card used for the order; refunds take 5 days."},
	{ID: "shipping-zones", Source: "policy.md#shipping", Text: "We ship to the EU and the UK."},
	{ID: "returns-label", Source: "policy.md#returns", Text: "A returns label for a refund is printed from the order page, and the refund starts when the parcel is scanned."},
	{ID: "opening-hours", Source: "contact.md", Text: "Support answers from 9 to 17, Monday to Friday."},
}

func newRunbook(t *testing.T) *retrieval.Corpus {
	t.Helper()
	idx, err := retrieval.NewMemoryIndex(128)
	if err != nil {
		t.Fatal(err)
	}
	emb := &retrieval.HashEmbedder{Dims: 128}
	c, err := retrieval.NewCorpus("runbook", emb, idx)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Add(context.Background(), runbook...); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestRankingDeterministic(t *testing.T) {
	ctx := context.Background()
	c := newRunbook(t)
	first, err := c.Retrieve(ctx, "how many days is the refund window", 5)
	if err != nil {
		t.Fatal(err)
	}
	// A corpus filled in the reverse order ranks the same way.
	idx, _ := retrieval.NewMemoryIndex(128)
	rev := retrieval.MustCorpus(retrieval.NewCorpus("runbook", &retrieval.HashEmbedder{Dims: 128}, idx))
	for i := len(runbook) - 1; i >= 0; i-- {
		if err := rev.Add(ctx, runbook[i]); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 {
		again, err := rev.Retrieve(ctx, "how many days is the refund window", 5)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(first, again); diff != "" {
			t.Fatalf("ranking changed (-first +again):\n%s", diff)
		}
	}
	if first[0].ID != "refund-window" {
		t.Errorf("the best passage for a refund question is %s", first[0].ID)
	}
}

// onlyIf answers yes when a system segment holds want.
func onlyIf(want, yes, no string) *scripted.Provider {
	return scripted.Func(func(req *llm.Request, call int, seed int64) scripted.Reply {
		for _, s := range req.System {
			if strings.Contains(s.Text, want) {
				return scripted.Reply{Content: yes}
			}
		}
		return scripted.Reply{Content: no}
	})
}

func TestDropsRecorded(t *testing.T) {
	ctx := context.Background()
	c := newRunbook(t)
	// Score the candidates first so the threshold and budget can be set
	// where they bite.
	const q = "how do refunds work for the refund of an order"
	found, err := c.Retrieve(ctx, q, 5)
	if err != nil {
		t.Fatal(err)
	}
	threshold := (found[2].Score + found[3].Score) / 2 // keeps three, drops two
	// The first and the third fit the budget, the second does not.
	budget := len([]rune(found[0].Text)) + len([]rune(found[2].Text)) + 1
	if len([]rune(found[1].Text)) <= len([]rune(found[2].Text)) {
		t.Fatalf("the corpus no longer sets up a budget drop: %v", found)
	}
	units, err := retrieval.Units(ctx, c, retrieval.WithTopK(2), retrieval.WithThreshold(threshold),
		retrieval.WithBudget(budget), retrieval.WithCandidates(5))
	if err != nil {
		t.Fatal(err)
	}
	a, err := agent.New(onlyIf("30 days", "Within 30 days.", "Unknown."), agent.WithUnits(units...))
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Run(ctx, agent.Input{Message: q})
	if err != nil {
		t.Fatal(err)
	}
	recs, err := retrieval.Records(res.Record)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 {
		t.Fatalf("%d retrieval records, want 1 (one query in one iteration)", len(recs))
	}
	r := recs[0]
	if r.Query != q || r.TopK != 2 || r.Budget != budget || len(r.Candidates) != 5 {
		t.Fatalf("record header: %+v", r)
	}
	var got []string
	spent := 0
	for i, cand := range r.Candidates {
		if cand.Rank != i+1 || cand.ID != found[i].ID || cand.Score != found[i].Score {
			t.Errorf("candidate %d: %+v, want %s at %.4f", i, cand, found[i].ID, found[i].Score)
		}
		outcome := "picked"
		if !cand.Picked {
			outcome = cand.Dropped
		} else {
			spent += cand.Chars
		}
		got = append(got, outcome)
	}
	// What the rules say for these five, in rank order.
	var want []string
	left, picked := budget, 0
	for _, f := range found {
		n := len([]rune(f.Text))
		switch {
		case f.Score < threshold:
			want = append(want, inject.DropThreshold)
		case picked >= 2:
			want = append(want, inject.DropTopK)
		case n > left:
			want = append(want, inject.DropBudget)
		default:
			want = append(want, "picked")
			picked++
			left -= n
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
	for _, reason := range []string{inject.DropThreshold, inject.DropBudget} {
		if !strings.Contains(strings.Join(got, " "), reason) {
			t.Errorf("the scenario should exercise a %s drop; got %v", reason, got)
		}
	}
	if r.Spent != spent {
		t.Errorf("spent %d, want %d", r.Spent, spent)
	}
}

func TestAblatingOnePassageChangesTheAnswer(t *testing.T) {
	ctx := context.Background()
	c := newRunbook(t)
	units, err := retrieval.Units(ctx, c, retrieval.WithTopK(2))
	if err != nil {
		t.Fatal(err)
	}
	model := onlyIf("30 days", "Within 30 days of delivery.", "I cannot find the refund window.")
	bp := explain.Blueprint{Units: units}
	base, err := bp.Build(model)
	if err != nil {
		t.Fatal(err)
	}
	in := agent.Input{Message: "What is the refund window in days?"}
	res, err := base.Run(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if res.Answer != "Within 30 days of delivery." {
		t.Fatalf("baseline answered %q", res.Answer)
	}
	ablated, err := explain.Ablate(bp, explain.Unit("refund-window"))
	if err != nil {
		t.Fatal(err)
	}
	without, err := ablated.Build(model)
	if err != nil {
		t.Fatal(err)
	}
	res2, err := without.Run(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if res2.Answer != "I cannot find the refund window." {
		t.Errorf("without refund-window the answer is %q", res2.Answer)
	}
	recs, _ := retrieval.Records(res2.Record)
	for _, cand := range recs[0].Candidates {
		if cand.ID == "refund-window" && (cand.Picked || cand.Dropped != inject.DropNoUnit) {
			t.Errorf("the ablated passage is recorded as %+v, want dropped %q", cand, inject.DropNoUnit)
		}
	}
}

func TestPickTopK(t *testing.T) {
	rec := inject.Retrieved{TopK: 2}
	found := []retrieval.Scored{
		{Passage: retrieval.Passage{ID: "a", Text: "aa"}, Score: 0.9},
		{Passage: retrieval.Passage{ID: "b", Text: "bb"}, Score: 0.8},
		{Passage: retrieval.Passage{ID: "c", Text: "cc"}, Score: 0.7},
	}
	retrieval.Pick(&rec, found)
	want := []inject.Candidate{
		{ID: "a", Score: 0.9, Rank: 1, Chars: 2, Picked: true},
		{ID: "b", Score: 0.8, Rank: 2, Chars: 2, Picked: true},
		{ID: "c", Score: 0.7, Rank: 3, Chars: 2, Dropped: inject.DropTopK},
	}
	if diff := cmp.Diff(want, rec.Candidates); diff != "" {
		t.Errorf("candidates (-want +got):\n%s", diff)
	}
	if rec.Spent != 4 {
		t.Errorf("spent %d, want 4", rec.Spent)
	}
}

func TestCoverageRowsFromTheRecord(t *testing.T) {
	ctx := context.Background()
	idx, _ := retrieval.NewMemoryIndex(64)
	c := retrieval.MustCorpus(retrieval.NewCorpus("runbook", &retrieval.HashEmbedder{Dims: 64}, idx,
		retrieval.WithCoverage(coverage.LedgerDecl{
			Checked:     []coverage.Item{{What: "the payments runbook"}},
			CannotCover: []coverage.Item{{What: "incidents after March", Why: "the runbook was last edited in March"}},
		})))
	if err := c.Add(ctx, runbook...); err != nil {
		t.Fatal(err)
	}
	units, _ := retrieval.Units(ctx, c)
	a, _ := agent.New(scripted.New(scripted.Reply{Content: "ok"}), agent.WithUnits(units...))
	res, err := a.Run(ctx, agent.Input{Message: "refund window"})
	if err != nil {
		t.Fatal(err)
	}
	cu, ok := contextUnitsOf(t, res)
	if !ok {
		t.Fatal("no contextUnits in the record")
	}
	rows := retrievalcov.Rows(cu.Units, cu.Iteration, nil)
	want := []coverage.DeclaredCoverage{{
		Kind: boundary.KindLedger, ToolName: "retrieval/runbook", Iteration: 1, LookedFor: "refund window",
		Checked:     []coverage.Item{{What: "the payments runbook"}},
		NotChecked:  []coverage.Item{},
		CannotCover: []coverage.Item{{What: "incidents after March", Why: "the runbook was last edited in March"}},
	}}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	if again := retrievalcov.Rows(cu.Units, 2, rows); len(again) != 0 {
		t.Errorf("the same query filed twice: %+v", again)
	}
	// Filed, the row reaches the standing as a tool's declaration does: the fold reads
	// its cannotCover item as a coverage gap.
	a2 := assessfold.Fold(assessfold.Input{Turn: 1, Coverage: rows, History: res.History, UserMessage: "refund window"})
	var reasons []string
	for _, r := range a2.Reasons {
		reasons = append(reasons, r.Reason)
	}
	if diff := cmp.Diff([]string{assess.ReasonCoverageGap}, reasons); diff != "" {
		t.Errorf("reasons (-want +got):\n%s", diff)
	}
}

func contextUnitsOf(t *testing.T, res *agent.Result) (state.ContextUnits, bool) {
	t.Helper()
	log := res.Record.Log
	for _, c := range log.Commits {
		for _, op := range c.Ops {
			if op.Key == state.KeyContextUnits.KeyName() {
				cu, ok := op.Value.(state.ContextUnits)
				return cu, ok
			}
		}
	}
	return state.ContextUnits{}, false
}

func TestBacktrackReachesThePassage(t *testing.T) {
	ctx := context.Background()
	units, err := retrieval.Units(ctx, newRunbook(t), retrieval.WithTopK(1))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := agent.New(onlyIf("30 days", "Within 30 days.", "Unknown."), agent.WithUnits(units...))
	res, err := a.Run(ctx, agent.Input{Message: "What is the refund window in days?"})
	if err != nil {
		t.Fatal(err)
	}
	ch, err := explain.Backtrack(res.Record, explain.Target{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ch.Flags) != 0 {
		t.Errorf("flags: %v", ch.Flags)
	}
	for _, s := range ch.Suspects {
		if s.Unit != "refund-window" {
			continue
		}
		tr := s.Allowed.Trigger
		if tr == nil || tr.Kind != inject.TriggerRetrieved || tr.Retrieval == nil || tr.Retrieval.Candidate == nil ||
			tr.Retrieval.Candidate.Rank != 1 || tr.Retrieval.Query != "What is the refund window in days?" {
			t.Errorf("allowed hop: %+v", tr)
		}
		if len(tr.Reads) != 1 || tr.Reads[0].Key != "userMessage" || !strings.HasPrefix(tr.Reads[0].Writer, "seed#") {
			t.Errorf("the query's read: %+v", tr.Reads)
		}
		if s.Born.Kind != "rag" || s.Born.ContentHash == "" || s.Born.DefinedAt == nil ||
			!strings.HasSuffix(s.Born.DefinedAt.Function, "TestBacktrackReachesThePassage") {
			t.Errorf("born hop: %+v", s.Born)
		}
		return
	}
	t.Errorf("no suspect is the passage; suspects: %+v", ch.Suspects)
}
