// Tests for sf-results mounted in a parent chart: one write per batch, no write without rows,
// events fired inside the subflow, and batches told apart by iteration.

package results

import (
	"context"
	"encoding/json"
	"regexp"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/honesty/ledger"
	"github.com/google/go-cmp/cmp"
)

// The parent's keys: the agent-state keys the mount reads and writes.
var (
	pIteration   = state.KeyIteration
	pStamp       = KeyToolResultsIteration
	pTurn        = state.KeyTurnNumber
	pToolResults = state.KeyToolResults
	pDeclared    = state.KeyCoverageDeclared
	pLedger      = state.KeyFindingsLedger
)

// parentState is what the parent's seed stage writes before the loop head.
type parentState struct {
	iteration int
	stamp     *int
	turn      int
	results   []state.ToolResult
	declared  []coverage.DeclaredCoverage
	ledger    []ledger.Row
}

func intp(i int) *int { return &i }

// parentChart builds seed -> sf-results -> done, with the layer built from deps.
func parentChart(t testing.TB, st parentState, deps Deps) *flow.Chart {
	t.Helper()
	l, err := New(deps)
	if err != nil {
		t.Fatal(err)
	}
	c, err := flow.NewBuilder("agent-test").
		Keys(pIteration, pStamp, pTurn, pToolResults, pDeclared, pLedger).
		Stage("seed", func(_ context.Context, s *flow.Scope) (any, error) {
			pIteration.Set(s, st.iteration)
			if st.stamp != nil {
				pStamp.Set(s, *st.stamp)
			}
			pTurn.Set(s, st.turn)
			pToolResults.Set(s, st.results)
			if len(st.declared) > 0 {
				pDeclared.Set(s, st.declared)
			}
			if len(st.ledger) > 0 {
				pLedger.Set(s, st.ledger)
			}
			return nil, nil
		}).
		Mount(l.ID, l.Chart, l.Mount).
		Stage("done", func(_ context.Context, s *flow.Scope) (any, error) { return pLedger.Get(s), nil }).
		Build()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func absenceRow(id string, it int, p coverage.Period) coverage.DeclaredCoverage {
	return coverage.DeclaredCoverage{Kind: boundary.KindAbsence, ToolName: "backup_runs", ToolCallID: id, Iteration: it,
		LookedFor: "failed backup runs for host-103", Checked: []coverage.Item{{What: "every job in the 02:00 export"}}, Period: &p}
}

func TestSubflowJudgesBatchOnce(t *testing.T) {
	tests := []struct {
		name   string
		st     parentState
		want   []string // the rows appended, as JSON
		events int
	}{
		{
			name: "S1 stale absence right after the batch",
			st: parentState{iteration: 2, stamp: intp(1), turn: 1,
				results:  []state.ToolResult{{ToolCallID: "c1", ToolName: "backup_runs", Iteration: 1, Status: "absent"}},
				declared: []coverage.DeclaredCoverage{absenceRow("c1", 1, stale)}},
			want:   []string{`{"kind":"period","turn":1,"toolCallId":"c1","toolName":"backup_runs","iteration":1,"verdict":"not-held"}`},
			events: 1,
		},
		{
			name: "S10 re-entry after wrap-up judges nothing",
			st: parentState{iteration: 3, stamp: intp(1), turn: 1,
				results:  []state.ToolResult{{ToolCallID: "c1", ToolName: "backup_runs", Iteration: 1}},
				declared: []coverage.DeclaredCoverage{absenceRow("c1", 1, stale)}},
		},
		{
			name: "first iteration has no batch",
			st:   parentState{iteration: 1, turn: 1},
		},
		{
			name: "S14 batch of three in order; a call without period or argument files nothing",
			st: parentState{iteration: 2, stamp: intp(1), turn: 1,
				results: []state.ToolResult{{ToolCallID: "c1", ToolName: "backup_runs"}, {ToolCallID: "c2", ToolName: "lookup"}, {ToolCallID: "c3", ToolName: "backup_runs"}},
				declared: []coverage.DeclaredCoverage{absenceRow("c1", 1, stale),
					{Kind: boundary.KindLedger, ToolName: "backup_runs", ToolCallID: "c3", Iteration: 1, Period: &unk}}},
			want: []string{
				`{"kind":"period","turn":1,"toolCallId":"c1","toolName":"backup_runs","iteration":1,"verdict":"not-held"}`,
				`{"kind":"period","turn":1,"toolCallId":"c3","toolName":"backup_runs","iteration":1,"verdict":"unknown"}`,
			},
			events: 2,
		},
		{
			name: "S11 a reused id is judged on this batch's periods only",
			st: parentState{iteration: 3, stamp: intp(2), turn: 1,
				results:  []state.ToolResult{{ToolCallID: "c1", ToolName: "backup_runs"}},
				declared: []coverage.DeclaredCoverage{absenceRow("c1", 1, fresh), absenceRow("c1", 2, stale)},
				ledger:   []ledger.Row{ledger.FromPeriod(boundary.PeriodRow{Turn: 1, ToolCallID: "c1", ToolName: "backup_runs", Iteration: 1, Verdict: "covered"})}},
			want: []string{
				`{"kind":"period","turn":1,"toolCallId":"c1","toolName":"backup_runs","iteration":1,"verdict":"covered"}`,
				`{"kind":"period","turn":1,"toolCallId":"c1","toolName":"backup_runs","iteration":2,"verdict":"not-held"}`,
			},
			events: 1,
		},
		{
			name: "period tool that declared nothing is undeclared, naming its argument",
			st: parentState{iteration: 2, stamp: intp(1), turn: 4,
				results: []state.ToolResult{{ToolCallID: "s1", ToolName: "search_logs"}, {ToolCallID: "", ToolName: "search_logs"}}},
			want: []string{
				`{"kind":"period","turn":4,"toolCallId":"s1","toolName":"search_logs","iteration":1,"verdict":"undeclared","argument":"window"}`,
				`{"kind":"period","turn":4,"toolCallId":"","toolName":"search_logs","iteration":1,"verdict":"undeclared","argument":"window"}`,
			},
			events: 2,
		},
	}
	instant := regexp.MustCompile(`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}`)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var events []flow.Event
			c := parentChart(t, tt.st, Deps{ArgumentOf: argWindow})
			res, err := c.Run(context.Background(), nil, flow.WithObserver("", &flow.Hooks{Emit: func(e flow.Event) { events = append(events, e) }}))
			if err != nil {
				t.Fatal(err)
			}
			rows, _ := res.Output.([]ledger.Row)
			got := make([]string, 0, len(rows))
			for _, r := range rows {
				b, err := json.Marshal(r)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, string(b))
			}
			want := tt.want
			if want == nil {
				want = []string{}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("ledger (-want +got):\n%s", diff)
			}

			// The mount commit: at most one op, an append to findingsLedger.
			idx, ok := res.Record.Find(SubflowID + "#1")
			if !ok {
				t.Fatalf("no mount commit in %+v", res.Record.Commits)
			}
			ops := res.Record.Commits[idx].Ops
			if tt.events == 0 && len(ops) != 0 {
				t.Errorf("mount wrote %v with nothing to file", ops)
			}
			if tt.events > 0 && (len(ops) != 1 || ops[0].Key != "findingsLedger" || ops[0].Verb != flow.VerbAppend) {
				t.Errorf("mount ops = %+v, want one append to findingsLedger", ops)
			}

			// Inner stages: the four stage ids, in order.
			inner := res.Record.Subflows[SubflowID+"#1"]
			var stages []string
			for _, cm := range inner.Commits[1:] {
				stages = append(stages, cm.StageID)
			}
			if diff := cmp.Diff([]string{"declare", "verify", "record", "resolve"}, stages); diff != "" {
				t.Errorf("inner stages (-want +got):\n%s", diff)
			}

			// Events: fired inside the subflow, exact keys, no instant (S19).
			if len(events) != tt.events {
				t.Fatalf("got %d events, want %d", len(events), tt.events)
			}
			for _, e := range events {
				if e.Name != string(event.FindingsPeriod) || e.SubflowPath != SubflowID {
					t.Errorf("event %q from %q, want %q from %q", e.Name, e.SubflowPath, event.FindingsPeriod, SubflowID)
				}
				b, _ := json.Marshal(e.Payload)
				var m map[string]any
				_ = json.Unmarshal(b, &m)
				keys := []string{}
				for k := range m {
					keys = append(keys, k)
				}
				if len(keys) != 5 || m["toolCallId"] == nil || m["toolName"] == nil || m["iteration"] == nil || m["turn"] == nil || m["verdict"] == nil {
					t.Errorf("payload keys %v, want exactly toolCallId, toolName, iteration, turn, verdict", keys)
				}
				if instant.Match(b) {
					t.Errorf("payload carries an instant: %s", b)
				}
			}
		})
	}
}

func TestSubflowRecordRoundTrip(t *testing.T) {
	st := parentState{iteration: 2, stamp: intp(1), turn: 1,
		results:  []state.ToolResult{{ToolCallID: "c1", ToolName: "backup_runs"}},
		declared: []coverage.DeclaredCoverage{absenceRow("c1", 1, stale)}}
	c := parentChart(t, st, Deps{})
	res, err := c.Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(res.Record)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := c.DecodeRecord(data)
	if err != nil {
		t.Fatal(err)
	}
	v, ok, err := flow.ValueAt(rec, len(rec.Commits)-1, "findingsLedger")
	if err != nil || !ok {
		t.Fatalf("ValueAt: %v %v", ok, err)
	}
	rows, _ := v.([]ledger.Row)
	got := ledger.PeriodRows(rows)
	want := []boundary.PeriodRow{{Kind: "period", Turn: 1, ToolCallID: "c1", ToolName: "backup_runs", Iteration: 1, Verdict: "not-held"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("decoded ledger (-want +got):\n%s", diff)
	}
}

func TestInputReadsTypedState(t *testing.T) {
	declared := []coverage.DeclaredCoverage{
		{Kind: boundary.KindLedger, ToolName: "t", ToolCallID: "a", Iteration: 1, Period: &unk},
		{Kind: boundary.KindLedger, ToolName: "t", ToolCallID: "a", Iteration: 0, Period: &stale},
		{Kind: boundary.KindLedger, ToolName: "t", ToolCallID: "z", Iteration: 1, Period: &stale},
	}
	tests := []struct {
		name  string
		state mapReader
		want  map[string]any
	}{
		{"no batch: calls only", mapReader{"iteration": 1}, map[string]any{"calls": []RanCall{}}},
		{"the batch's calls, in order, and the turn", mapReader{"iteration": 2, "toolResultsIteration": 1, "turnNumber": 3,
			"toolResults": []state.ToolResult{{ToolCallID: "a", ToolName: "t", Iteration: 1}, {ToolCallID: "b", ToolName: "u", Iteration: 1}}},
			map[string]any{"calls": []RanCall{{"a", "t"}, {"b", "u"}}, "batchIteration": 1, "turnNumber": 3}},
		{"periods of this batch's calls only", mapReader{"iteration": 2, "toolResultsIteration": 1, "turnNumber": 1,
			"toolResults": []state.ToolResult{{ToolCallID: "a", ToolName: "t"}}, "coverageDeclared": declared},
			map[string]any{"calls": []RanCall{{"a", "t"}}, "batchIteration": 1, "turnNumber": 1, "periods": []CallPeriod{{"a", unk}}}},
		{"values of another type read as absent", mapReader{"iteration": 2, "toolResultsIteration": 1, "turnNumber": "3",
			"toolResults": []map[string]any{{"toolCallId": "a", "toolName": "t"}}},
			map[string]any{"calls": []RanCall{}, "batchIteration": 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Input(tt.state)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Input (-want +got):\n%s", diff)
			}
		})
	}
}

type ctxKey struct{}

func TestCustomEmitGetsStageContext(t *testing.T) {
	st := parentState{iteration: 2, stamp: intp(1), turn: 1,
		results:  []state.ToolResult{{ToolCallID: "c1", ToolName: "backup_runs"}},
		declared: []coverage.DeclaredCoverage{absenceRow("c1", 1, stale)}}
	var got []boundary.PeriodRow
	var tag any
	c := parentChart(t, st, Deps{EmitRows: func(ctx context.Context, s *flow.Scope, rows []boundary.PeriodRow) {
		tag = ctx.Value(ctxKey{})
		if s.Info().SubflowPath != SubflowID {
			t.Errorf("emit ran at %q, want inside %q", s.Info().SubflowPath, SubflowID)
		}
		got = append(got, rows...)
	}})
	if _, err := c.Run(context.WithValue(context.Background(), ctxKey{}, "run-7"), nil); err != nil {
		t.Fatal(err)
	}
	if tag != "run-7" || len(got) != 1 || got[0].Verdict != "not-held" {
		t.Errorf("emit saw ctx %v and rows %+v", tag, got)
	}
}

func TestTimeInputsReachVerify(t *testing.T) {
	st := parentState{iteration: 2, stamp: intp(1), turn: 1,
		results:  []state.ToolResult{{ToolCallID: "c1", ToolName: "backup_runs"}, {ToolCallID: "c2", ToolName: "backup_runs"}},
		declared: []coverage.DeclaredCoverage{absenceRow("c1", 1, stale), absenceRow("c2", 1, fresh)}}
	var gotCalls []RanCall
	var gotIteration int
	deps := Deps{TimeInputs: func(_ flow.Reader, calls []RanCall, iteration int) map[string]TimeInput {
		gotCalls, gotIteration = calls, iteration
		return map[string]TimeInput{"c2": {PartlyBeyondRetention: true}}
	}}
	var events []flow.Event
	c := parentChart(t, st, deps)
	res, err := c.Run(context.Background(), nil, flow.WithObserver("", &flow.Hooks{Emit: func(e flow.Event) { events = append(events, e) }}))
	if err != nil {
		t.Fatal(err)
	}
	if len(gotCalls) != 2 || gotIteration != 1 {
		t.Errorf("TimeInputs saw calls %v at iteration %d", gotCalls, gotIteration)
	}
	rows, _ := res.Output.([]ledger.Row)
	var got []string
	for _, r := range rows {
		got = append(got, string(must(json.Marshal(r))))
	}
	want := []string{
		`{"kind":"period","turn":1,"toolCallId":"c1","toolName":"backup_runs","iteration":1,"verdict":"not-held"}`,
		`{"kind":"period","turn":1,"toolCallId":"c2","toolName":"backup_runs","iteration":1,"verdict":"covered","partlyBeyondRetention":true}`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	if len(events) != 2 {
		t.Fatalf("%d events", len(events))
	}
	if p := events[1].Payload.(event.FindingsPeriodPayload); !cmp.Equal(p.TimeChecks, []string{"partly-beyond-retention"}) {
		t.Errorf("second event's timeChecks = %v", p.TimeChecks)
	}
	if p := events[0].Payload.(event.FindingsPeriodPayload); p.TimeChecks != nil {
		t.Errorf("a call without time checks listed %v", p.TimeChecks)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
