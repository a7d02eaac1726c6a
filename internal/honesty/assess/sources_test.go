// Tests that the fold gives one answer whatever the record's source: a live run's reader, its
// record, the record stored as JSON and read back with or without the chart, or a checkpoint's
// ledger.

package assess

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/honesty/assess"
	"github.com/agentfootprint/agentfootprint-go/honesty/ledger"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/google/go-cmp/cmp"
)

func TestSameFoldFromEverySource(t *testing.T) {
	turn, user, history := state.KeyTurnNumber, state.KeyUserMessage, state.KeyHistory
	declared, rows := state.KeyCoverageDeclared, state.KeyFindingsLedger
	stale := coverage.Period{Queried: coverage.Span{From: "2026-09-26T09:00:00Z", To: "2026-09-26T10:00:00Z"},
		Held: coverage.Held{Span: coverage.Span{From: "2026-08-27T02:00:00Z", To: "2026-09-26T02:00:00Z"}}}
	var live assess.Assessment
	c := flow.NewBuilder("agent-like").
		Keys(turn, user, history, declared, rows).
		Stage("seed", func(_ context.Context, s *flow.Scope) (any, error) {
			turn.Set(s, 2)
			user.Set(s, "and now?")
			history.Set(s, []llm.Message{{Role: llm.RoleUser, Content: "first"}, {Role: llm.RoleUser, Content: "and now?"}})
			rows.Set(s, []ledger.Row{ledger.FromPeriod(boundary.PeriodRow{Turn: 1, ToolCallID: "c1", ToolName: "backup_runs", Iteration: 1, Verdict: "not-held"})})
			return nil, nil
		}).
		Stage("tool-calls", func(_ context.Context, s *flow.Scope) (any, error) {
			history.Append(s, llm.Message{Role: llm.RoleTool, ToolCallID: "c1", ToolName: "backup_runs", Content: "[]"},
				llm.Message{Role: llm.RoleTool, ToolCallID: "c2", ToolName: "backup_runs", Content: `{"af_absent":true,"checked":[{"what":"the export"}]}`})
			declared.Append(s, coverage.DeclaredCoverage{Kind: boundary.KindAbsence, ToolName: "backup_runs", ToolCallID: "c2", Iteration: 1,
				Checked: []coverage.Item{{What: "the export"}}, NotChecked: []coverage.Item{{What: "host-104"}}, Period: &stale})
			return nil, nil
		}).
		Stage("sf-results", func(_ context.Context, s *flow.Scope) (any, error) {
			rows.Append(s, ledger.FromPeriod(boundary.PeriodRow{Turn: 2, ToolCallID: "c2", ToolName: "backup_runs", Iteration: 1, Verdict: "not-held"}))
			return nil, nil
		}).
		Stage("prepare-final", func(_ context.Context, s *flow.Scope) (any, error) {
			live = Fold(InputFromReader(s))
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
		st, err := InputFromRecord(rec)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if diff := cmp.Diff(live, Fold(st)); diff != "" {
			t.Errorf("%s disagrees with the live fold (-live +got):\n%s", name, diff)
		}
		checkWitnesses(t, st, Fold(st))
	}
	wantReasons := []string{assess.ReasonCoverageGap, assess.ReasonDeclaredAbsent, assess.ReasonEmptyUndeclared, assess.ReasonPeriodNotHeld}
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
	fromCk := Fold(InputFromLedger(ckRows, 2))
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

// TestInputFromJSONKeepsIndices: an element that does not decode into its typed form is left at
// its zero value, so the fold skips it and every other witness still points at its own index in
// the JSON.
func TestInputFromJSONKeepsIndices(t *testing.T) {
	js := `{"turnNumber":1,"findingsLedger":[7,{"kind":"period","turn":1,"verdict":5},` + period("c1", "not-held", 1, "") + `],` +
		`"coverageDeclared":["x",{"kind":"absence","toolName":"t","toolCallId":"c1","iteration":1,"checked":[],"notChecked":[{"what":"host-104"}],"cannotCover":[]}],` +
		`"userMessage":7,"argumentAsk":{"waiting":"soon"}}`
	in, err := InputFromJSON([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Findings) != 3 || in.Findings[0].Kind() != "" || in.Findings[1].Kind() != "" || len(in.Coverage) != 2 {
		t.Fatalf("elements were dropped or kept half-decoded: %+v", in)
	}
	if in.UserMessage != "" || in.ArgumentAsk.Waiting != nil {
		t.Errorf("values of the wrong JSON type were read: %+v", in)
	}
	a := Fold(in)
	checkWitnesses(t, in, a)
	cd := func(path string) assess.Pointer { return StatePointer("coverageDeclared", path) }
	want := []assess.Reason{
		{Reason: assess.ReasonCoverageGap, Layer: 3, Witness: []assess.Pointer{cd("/1/notChecked/0")}},
		{Reason: assess.ReasonDeclaredAbsent, Layer: 3, Witness: []assess.Pointer{cd("/1/kind")}},
		{Reason: assess.ReasonPeriodNotHeld, Layer: 3, Witness: []assess.Pointer{sp("/2/verdict")}},
	}
	if diff := cmp.Diff(want, a.Reasons); diff != "" {
		t.Errorf("reasons (-want +got):\n%s", diff)
	}
	if c := a.Checked[len(a.Checked)-1]; c.Check != CheckResultPeriod || c.Of != 1 {
		t.Errorf("the row that did not decode was counted: %+v", c)
	}

	for _, bad := range []string{`[1]`, `{"findingsLedger":[}`, `not json`} {
		if _, err := InputFromJSON([]byte(bad)); err == nil {
			t.Errorf("InputFromJSON(%s) gave no error", bad)
		}
	}
}

// TestInputFromReaderIgnoresOtherTypes: a key holding a value of another Go type reads as absent.
func TestInputFromReaderIgnoresOtherTypes(t *testing.T) {
	in := InputFromReader(readerMap{"turnNumber": "2", "findingsLedger": []any{1}, "userMessage": "q",
		"history": []llm.Message{{Role: llm.RoleUser, Content: "q"}}})
	want := Input{UserMessage: "q", History: []llm.Message{{Role: llm.RoleUser, Content: "q"}}}
	if diff := cmp.Diff(want, in, cmp.AllowUnexported(ledger.Row{})); diff != "" {
		t.Errorf("InputFromReader (-want +got):\n%s", diff)
	}
}
