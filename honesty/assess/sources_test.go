// Tests that the fold gives one answer whatever the record's source: a live run's reader, its
// record, the record stored as JSON and read back with or without the chart, or a checkpoint's
// ledger.

package assess

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/honesty/ledger"
	"github.com/agentfootprint/agentfootprint-go/llm"
)

func TestSameFoldFromEverySource(t *testing.T) {
	turn := flow.Key[int]("turnNumber")
	user := flow.Key[string]("userMessage")
	history := flow.List[llm.Message]("history")
	declared := flow.List[coverage.DeclaredCoverage]("coverageDeclared")
	rows := ledger.StateKey()
	stale := coverage.Period{Queried: coverage.Span{From: "2026-09-26T09:00:00Z", To: "2026-09-26T10:00:00Z"},
		Held: coverage.HeldSpan("2026-08-27T02:00:00Z", "2026-09-26T02:00:00Z")}
	var live Assessment
	c := flow.NewBuilder("agent-like").
		Keys(turn, user, history, declared, rows).
		Stage("seed", func(_ context.Context, s *flow.Scope) (any, error) {
			turn.Set(s, 2)
			user.Set(s, "and now?")
			history.Set(s, []llm.Message{{Role: llm.RoleUser, Content: "first"}, {Role: llm.RoleUser, Content: "and now?"}})
			rows.Set(s, []ledger.Row{ledger.FromPeriod(coverage.PeriodRow{Turn: 1, ToolCallID: "c1", ToolName: "backup_runs", Iteration: 1, Verdict: "not-held"})})
			return nil, nil
		}).
		Stage("tool-calls", func(_ context.Context, s *flow.Scope) (any, error) {
			history.Append(s, llm.Message{Role: llm.RoleTool, ToolCallID: "c1", ToolName: "backup_runs", Content: "[]"},
				llm.Message{Role: llm.RoleTool, ToolCallID: "c2", ToolName: "backup_runs", Content: `{"af_absent":true,"checked":[{"what":"the export"}]}`})
			declared.Append(s, coverage.DeclaredCoverage{Kind: coverage.KindAbsence, ToolName: "backup_runs", ToolCallID: "c2", Iteration: 1,
				Checked: []coverage.Item{{What: "the export"}}, NotChecked: []coverage.Item{{What: "host-104"}}, Period: &stale})
			return nil, nil
		}).
		Stage("sf-results", func(_ context.Context, s *flow.Scope) (any, error) {
			rows.Append(s, ledger.FromPeriod(coverage.PeriodRow{Turn: 2, ToolCallID: "c2", ToolName: "backup_runs", Iteration: 1, Verdict: "not-held"}))
			return nil, nil
		}).
		Stage("prepare-final", func(_ context.Context, s *flow.Scope) (any, error) {
			st, err := StateFromReader(s)
			if err != nil {
				return nil, err
			}
			live = Fold(st)
			return nil, nil
		}).
		MustBuild()
	res, err := c.Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(res.Record)
	if err != nil {
		t.Fatal(err)
	}
	typed, err := c.DecodeRecord(data)
	if err != nil {
		t.Fatal(err)
	}
	var raw flow.Record
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	for name, rec := range map[string]*flow.Record{"live record": res.Record, "decoded with the chart": typed, "plain JSON": &raw} {
		st, err := StateFromRecord(rec)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if diff := cmp.Diff(live, Fold(st)); diff != "" {
			t.Errorf("%s disagrees with the live fold (-live +got):\n%s", name, diff)
		}
		checkWitnesses(t, st, Fold(st))
	}
	wantReasons := []string{ReasonCoverageGap, ReasonDeclaredAbsent, ReasonEmptyUndeclared, ReasonPeriodNotHeld}
	var got []string
	for _, r := range live.Reasons {
		got = append(got, r.Reason)
	}
	if diff := cmp.Diff(wantReasons, got); diff != "" {
		t.Errorf("live reasons (-want +got):\n%s", diff)
	}
	if live.Reasons[3].Witness[0].Path != "/1/verdict" {
		t.Errorf("the turn-1 row was folded: %+v", live.Reasons[3])
	}

	// A checkpoint's ledger alone: the period reasons and check agree with the full fold's.
	ckRows := rows.Get(stateAt(t, res.Record))
	ck, err := StateFromLedger(ckRows, 2)
	if err != nil {
		t.Fatal(err)
	}
	fromCk := Fold(ck)
	if diff := cmp.Diff(live.Reasons[3:], fromCk.Reasons); diff != "" {
		t.Errorf("checkpoint period reasons (-live +checkpoint):\n%s", diff)
	}
	if diff := cmp.Diff(live.Checked[len(live.Checked)-1:], fromCk.Checked); diff != "" {
		t.Errorf("checkpoint checks (-live +checkpoint):\n%s", diff)
	}
}

// stateAt reads the record's final state as a flow.Reader.
type readerMap map[string]any

func (m readerMap) Get(k string) (any, bool) { v, ok := m[k]; return v, ok }
func (m readerMap) Has(k string) bool        { _, ok := m[k]; return ok }

func stateAt(t *testing.T, rec *flow.Record) flow.Reader {
	t.Helper()
	m, err := flow.Materialise(rec, len(rec.Commits)-1)
	if err != nil {
		t.Fatal(err)
	}
	return readerMap(m)
}
