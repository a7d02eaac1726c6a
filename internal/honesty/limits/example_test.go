// Runnable example: the block an answer carries.

package limits_test

import (
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	limitsblock "github.com/agentfootprint/agentfootprint-go/internal/honesty/limits"
)

// A search found nothing over a window its store does not hold; the answer carries both facts.
func ExampleCoverageBlock() {
	period := coverage.Period{
		Queried: coverage.Span{From: "2026-09-26T09:00:00Z", To: "2026-09-26T10:00:00Z"},
		Held:    coverage.Held{Span: coverage.Span{From: "2026-08-27T02:00:00Z", To: "2026-09-26T02:00:00Z"}},
	}
	rows := []coverage.DeclaredCoverage{{
		Kind: boundary.KindAbsence, ToolName: "backup_runs", ToolCallID: "c1", Iteration: 1,
		LookedFor: "failed backup runs for host-103",
		Checked:   []coverage.Item{{What: "every job in the 02:00 export"}},
		Period:    &period,
	}}
	fmt.Println(limitsblock.Attach("No failures.", limitsblock.CoverageBlock(rows)))
	// Output:
	// No failures.
	//
	// ---
	//
	// What this answer rests on, as stated by the tools the answer used (not by the model):
	//
	// Checked:
	// - every job in the 02:00 export
	//
	// Period:
	// - backup_runs queried 2026-09-26T09:00:00Z to 2026-09-26T10:00:00Z; the store holds 2026-08-27T02:00:00Z to 2026-09-26T02:00:00Z
}
