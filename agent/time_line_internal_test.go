// periodRowsOfTurn against the ledger's own OfTurn then PeriodRows, on a
// ledger mixing period rows of several turns, argument rows and a foreign
// kind kept as JSON.

package agent

import (
	"encoding/json"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	"github.com/agentfootprint/agentfootprint-go/honesty/ledger"
	"github.com/google/go-cmp/cmp"
)

func TestPeriodRowsOfTurnMatchesTheLedger(t *testing.T) {
	var foreign ledger.Row
	if err := json.Unmarshal([]byte(`{"kind":"coverageDeclared","turn":2,"note":"kept verbatim"}`), &foreign); err != nil {
		t.Fatal(err)
	}
	rows := []ledger.Row{
		ledger.FromPeriod(boundary.PeriodRow{Turn: 1, ToolCallID: "a", ToolName: "logs", Iteration: 1}),
		foreign,
		ledger.FromArgument(ledger.ArgumentRow{Turn: 2, ToolCallID: "b", ToolName: "logs", Iteration: 1, Argument: "since", Rule: "ask"}),
		ledger.FromPeriod(boundary.PeriodRow{Turn: 2, ToolCallID: "c", ToolName: "logs", Iteration: 2}),
		ledger.FromPeriod(boundary.PeriodRow{Turn: 2, ToolCallID: "d", ToolName: "metrics", Iteration: 3}),
		ledger.FromPeriod(boundary.PeriodRow{Turn: 3, ToolCallID: "e", ToolName: "logs", Iteration: 1}),
	}
	for turn := range 5 {
		want := ledger.PeriodRows(ledger.OfTurn(rows, turn))
		got := periodRowsOfTurn(rows, turn)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("turn %d (-ledger +got):\n%s", turn, diff)
		}
	}
	if n := len(periodRowsOfTurn(rows, 2)); n != 2 {
		t.Errorf("turn 2: %d period rows, want 2", n)
	}
}
