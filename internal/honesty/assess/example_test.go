// Runnable example: folding a checkpoint's ledger.

package assess_test

import (
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	"github.com/agentfootprint/agentfootprint-go/honesty/ledger"
	"github.com/agentfootprint/agentfootprint-go/internal/honesty/assess"
)

// Turn 2 of a conversation: the ledger carries turn 1's row as record, and only turn 2's row is
// folded.
func ExampleFold() {
	rows := []ledger.Row{
		ledger.FromPeriod(boundary.PeriodRow{Turn: 1, ToolCallID: "c1", ToolName: "backup_runs", Iteration: 1, Verdict: "covered"}),
		ledger.FromPeriod(boundary.PeriodRow{Turn: 2, ToolCallID: "c1", ToolName: "backup_runs", Iteration: 1, Verdict: "not-held"}),
	}
	a := assess.Fold(assess.InputFromLedger(rows, 2))
	fmt.Println(a.Standing)
	for _, r := range a.Reasons {
		fmt.Println(r.Reason, r.Witness[0].Key+r.Witness[0].Path)
	}
	// Output:
	// not-sure
	// period-not-held findingsLedger/1/verdict
}
