package coverread

import (
	"encoding/json"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/internal/honesty/rowkind"

	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
)

// A period row the results layer writes passes the loader's check; each single fault fails it.
func TestPeriodRowIsWellFormed(t *testing.T) {
	rows := []boundary.PeriodRow{
		{Kind: rowkind.Period, Turn: 2, ToolCallID: "a", ToolName: "backup_runs", Iteration: 3, Verdict: boundary.RowVerdict(coverage.VerdictNotHeld)},
		{Kind: rowkind.Period, Turn: 2, ToolCallID: "b", ToolName: "search_logs", Iteration: 3, Verdict: boundary.VerdictUndeclared, Argument: "window"},
	}
	var valid map[string]any
	for _, r := range rows {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if !PeriodRowIsWellFormed(m) {
			t.Errorf("%s not well formed", b)
		}
		valid = m
	}
	for _, mut := range []func(map[string]any){
		func(m map[string]any) { m["verdict"] = "stale" },
		func(m map[string]any) { m["argument"] = "" },
		func(m map[string]any) { m["turn"] = "1" },
		func(m map[string]any) { delete(m, "toolName") },
		func(m map[string]any) { m["shifted"] = map[string]any{"byMs": 1.5} },
		func(m map[string]any) { m["kind"] = "argument" },
	} {
		m := map[string]any{}
		for k, v := range valid {
			m[k] = v
		}
		mut(m)
		if PeriodRowIsWellFormed(m) {
			t.Errorf("accepted %v", m)
		}
	}
}

func TestPeriodLineAndLeastHeld(t *testing.T) {
	p := coverage.Period{Queried: coverage.Span{From: "A", To: "B"}, Held: coverage.Held{Span: coverage.Span{From: "C", To: "D"}}}
	if got := PeriodLine("backup_runs", p); got != "backup_runs queried A to B; the store holds C to D" {
		t.Errorf("line %q", got)
	}
	if v, ok := LeastHeld([]coverage.Verdict{coverage.VerdictCovered, coverage.VerdictPartlyHeld}); !ok || v != coverage.VerdictPartlyHeld {
		t.Errorf("least %v %v", v, ok)
	}
	if _, ok := LeastHeld(nil); ok {
		t.Error("no verdicts gave one")
	}
}

func TestReaders(t *testing.T) {
	s, err := coverage.Described(coverage.DescribedDecl{Edges: []any{map[string]any{"from": "a", "to": "b"}}})
	if err != nil {
		t.Fatal(err)
	}
	if o, ok := ReadSemantics(s); o == nil || !ok {
		t.Errorf("semantics %v %v", o, ok)
	}
	if o, ok := ReadSemantics(map[string]any{"af_semantics": true}); o != nil || ok {
		t.Errorf("malformed semantics recognized: %v", o)
	}
	d, err := coverage.Absent(coverage.AbsenceDecl{What: "x", CheckedDeclared: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := ReadDeclaredAbsence(d); !ok {
		t.Error("declared absence not recognized")
	}
	if _, ok := ReadAbsence(d); ok {
		t.Error("a declared absence read as a plain absence")
	}
	l, err := coverage.Wrap(1, coverage.LedgerDecl{CheckedDeclared: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := ReadDeclaredLedger(l); !ok {
		t.Error("declared ledger not recognized")
	}
	if _, ok := ReadLedger(l); ok {
		t.Error("a declared ledger read as a plain ledger")
	}
}
