package limits_test

import (
	"testing"

	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	"github.com/agentfootprint/agentfootprint-go/honesty/limits"
	limitsblock "github.com/agentfootprint/agentfootprint-go/internal/honesty/limits"
)

func TestCoverageBlockWith(t *testing.T) {
	p := &coverage.Period{Queried: coverage.Span{From: "2026-09-26T09:00:00Z", To: "2026-09-26T10:00:00Z"},
		Held: coverage.Held{Span: coverage.Span{From: "2026-08-27T02:00:00Z", To: "2026-09-26T02:00:00Z"}}}
	rows := []coverage.DeclaredCoverage{{Kind: boundary.KindLedger, ToolName: "backup_runs", ToolCallID: "c1", Iteration: 1,
		Checked: []coverage.Item{{What: "backup runs"}}, Period: p}}
	if got, want := limitsblock.CoverageBlockWith(rows, limitsblock.Extras{}), limitsblock.CoverageBlock(rows); got != want {
		t.Errorf("without extras\n got %q\nwant %q", got, want)
	}
	got := limitsblock.CoverageBlockWith(rows, limitsblock.Extras{
		PeriodLine:   func(tool string, _ coverage.Period) string { return tool + " queried (zoned)" },
		PeriodChecks: []string{"backup_runs read less than was asked"},
		Clocks:       []string{"all times here are in UTC because the person's time zone is unknown"},
	})
	want := limits.Heading + "\n\nChecked:\n- backup runs\n\nPeriod:\n- backup_runs queried (zoned)\n- backup_runs read less than was asked" +
		"\n\nClocks:\n- all times here are in UTC because the person's time zone is unknown"
	if got != want {
		t.Errorf("with extras\n got %q\nwant %q", got, want)
	}
	only := limitsblock.CoverageBlockWith(nil, limitsblock.Extras{PeriodChecks: []string{"x: its source keeps no data as old as the asked time"}})
	if only != limits.Heading+"\n\nPeriod:\n- x: its source keeps no data as old as the asked time" {
		t.Errorf("checks only %q", only)
	}
	if limitsblock.CoverageBlockWith(nil, limitsblock.Extras{}) != "" {
		t.Error("nothing: want no block")
	}
}
