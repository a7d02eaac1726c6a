// Tests of filing a retrieval record's coverage declaration as coverageDeclared rows.

package retrievalcov

import (
	"encoding/json"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/google/go-cmp/cmp"
)

// ledger is a corpus's coverage declaration in the wire form a retrieval record keeps.
func ledger(t *testing.T, d coverage.LedgerDecl) string {
	t.Helper()
	v, err := coverage.Wrap(nil, d)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// entry is a passage unit's outcome whose evidence carries the record of one query.
func entry(name, query, cov string) inject.Entry {
	rec := &inject.Retrieved{Retrieval: name, Query: query, Candidates: []inject.Candidate{}}
	if cov != "" {
		rec.Coverage = json.RawMessage(cov)
	}
	return inject.Entry{ID: "p1", Trigger: inject.Evidence{Kind: inject.TriggerRetrieved,
		Retrieval: &inject.RetrievalEvidence{Retrieval: name, Query: query, Record: rec}}}
}

func TestRows(t *testing.T) {
	refunds := ledger(t, coverage.LedgerDecl{Checked: []coverage.Item{{What: "the refunds page"}}})
	returns := ledger(t, coverage.LedgerDecl{CannotCover: []coverage.Item{{What: "returns before 2020", Why: "the archive was not indexed"}}})
	entries := []inject.Entry{
		{ID: "fact", Trigger: inject.Evidence{Kind: inject.TriggerAlways}}, // not a passage
		entry("kb", "refunds", refunds),
		entry("kb", "refunds", refunds),             // same query: filed once
		entry("notes", "refunds", ""),               // no declaration
		entry("odd", "refunds", `{"neither":true}`), // not a declaration the reader knows
		entry("kb", "returns", returns),
	}
	got := Rows(entries, 3, nil)
	want := []coverage.DeclaredCoverage{
		{Kind: boundary.KindLedger, ToolName: "retrieval/kb", Iteration: 3, LookedFor: "refunds",
			Checked: []coverage.Item{{What: "the refunds page"}}, NotChecked: []coverage.Item{}, CannotCover: []coverage.Item{}},
		{Kind: boundary.KindLedger, ToolName: "retrieval/kb", Iteration: 3, LookedFor: "returns",
			Checked: []coverage.Item{}, NotChecked: []coverage.Item{}, CannotCover: []coverage.Item{{What: "returns before 2020", Why: "the archive was not indexed"}}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	// A query already filed in an earlier iteration is not filed again.
	if again := Rows(entries[:3], 4, got); len(again) != 0 {
		t.Errorf("refiled: %+v", again)
	}
}
