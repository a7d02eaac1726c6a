// Benchmark: the coverage block over a run with a Wrap around an Absent and an in-progress list.

package limits

import (
	"testing"

	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
)

func BenchmarkCoverageBlock(b *testing.B) {
	rows := []coverage.DeclaredCoverage{
		{Kind: boundary.KindLedger, ToolName: "backup_runs", ToolCallID: "c1", Iteration: 1,
			Checked: []coverage.Item{{What: "the export"}}, NotChecked: []coverage.Item{{What: "host-104", Why: "not in scope"}},
			InProgress: []coverage.InProgressItem{{What: "sessions syncing", Count: 96, Why: "since 08:10"}}, Period: &fresh},
		{Kind: boundary.KindAbsence, ToolName: "backup_runs", ToolCallID: "c1", Iteration: 1,
			Checked: []coverage.Item{{What: "every job in the 02:00 export"}}, Period: &stale},
	}
	b.ReportAllocs()
	for b.Loop() {
		if Attach("No failures.", CoverageBlock(rows)) == "" {
			b.Fatal("empty")
		}
	}
}
