package ledger_test

import (
	"encoding/json"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/internal/honesty/rowkind"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	"github.com/agentfootprint/agentfootprint-go/honesty/ledger"
)

func TestRowsRoundTripAndRead(t *testing.T) {
	in := `[{"kind":"period","turn":1,"toolCallId":"c1","toolName":"backup_runs","iteration":1,"verdict":"not-held"},` +
		`{"kind":"argument","turn":2,"toolCallId":"c2","toolName":"search","iteration":1,"argument":"since","rule":"assume","source":"default","value":"24h"},` +
		`{"kind":"argument","turn":2,"toolCallId":"c2","toolName":"search","iteration":1,"argument":"since","rule":"ask","source":"answered","value":"7d"},` +
		`{"kind":"later-layer","turn":2,"note":"kept as written"}]`
	var rows []ledger.Row
	if err := json.Unmarshal([]byte(in), &rows); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(rows)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != in {
		t.Errorf("round trip changed the bytes:\n got %s\nwant %s", out, in)
	}
	kinds := []string{}
	for _, r := range rows {
		kinds = append(kinds, r.Kind())
	}
	if diff := cmp.Diff([]string{"period", "argument", "argument", "later-layer"}, kinds); diff != "" {
		t.Errorf("kinds (-want +got):\n%s", diff)
	}
	if p := ledger.PeriodRows(rows); len(p) != 1 || p[0].Verdict != "not-held" {
		t.Errorf("PeriodRows = %+v", p)
	}
	if got := ledger.OfTurn(rows, 2); len(got) != 3 || got[2].Kind() != "later-layer" {
		t.Errorf("OfTurn(2) kept %d rows, want 3 with the foreign row last", len(got))
	}
	cur := ledger.CurrentArguments(rows)
	if len(cur) != 1 || cur[0].Value != "7d" || cur[0].Source != "answered" {
		t.Errorf("CurrentArguments = %+v, want the last row for (turn 2, c2, since)", cur)
	}
	if _, ok := rows[0].Argument(); ok {
		t.Errorf("a period row answered Argument()")
	}
	r := ledger.FromPeriod(boundary.PeriodRow{Kind: "ignored", Turn: 3, ToolCallID: "c3", ToolName: "t", Iteration: 1, Verdict: "covered"})
	if p, ok := r.Period(); !ok || p.Kind != rowkind.Period || r.Kind() != rowkind.Period {
		t.Errorf("FromPeriod did not set the period kind: %+v", p)
	}
	var bad ledger.Row
	if err := json.Unmarshal([]byte(`[1]`), &bad); err == nil {
		t.Errorf("a row that is not an object was accepted")
	}
}
