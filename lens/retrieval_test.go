// Tests of the retrieval record in the context units pane, on a real run of
// an agent with retrieval units (lenstest.Retrieval).

package lens_test

import (
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/lens/lenstest"
	"github.com/agentfootprint/agentfootprint-go/retrieval"
)

var retrieved = fixture(lenstest.Retrieval)

func TestRetrievalRecordShown(t *testing.T) {
	rec := retrieved(t)
	recs, err := retrieval.Records(rec)
	if err != nil || len(recs) != 1 {
		t.Fatalf("the fixture's records: %v, %v; want one", recs, err)
	}
	r := recs[0]
	units := section(t, page(t, rec), "units")
	i := strings.Index(units, `<div class="retrieval" data-retrieval="`+lenstest.RetrievalCorpus+`">`)
	if i < 0 {
		t.Fatalf("the units pane shows no retrieval record:\n%s", units)
	}
	block := units[i : i+strings.Index(units[i:], "</table>")]
	mustContain(t, "retrieval record", block,
		`query <q class="query">How do I restart checkout?</q>`,
		"picked 2 of 4 candidates · top 3 · threshold 0.1 · 110 of the 120-character budget spent",
	)
	// Every candidate the record holds is a row, in rank order, with its
	// score and outcome.
	last := 0
	for _, c := range r.Candidates {
		row := `<tr data-passage="` + c.ID + `" data-picked="` + map[bool]string{true: "true", false: "false"}[c.Picked] + `">`
		at := strings.Index(block, row)
		if at < 0 {
			t.Fatalf("no row %s in:\n%s", row, block)
		}
		if at < last {
			t.Errorf("row of %s (rank %d) is out of rank order", c.ID, c.Rank)
		}
		last = at
		cells := block[at : at+strings.Index(block[at:], "</tr>")]
		want := map[string]string{
			"":          "placed in the request",
			"budget":    "its text did not fit what was left of the budget",
			"threshold": "its score is below the threshold 0.1",
		}[c.Dropped]
		mustContain(t, "row of "+c.ID, cells, `<a href="#unit-`+c.ID+`">`+c.ID+`</a>`, "<td>"+c.Source+"</td>", want)
	}
	mustContain(t, "scores", block, "<td>0.535</td>", "<td>0.433</td>", "<td>0.289</td>", "<td>0.000</td>")
	// Each passage unit's outcome names its rank and score for the query.
	mustContain(t, "passage outcomes", units,
		"retrieved by runbook for “How do I restart checkout?”: rank 1, score 0.535",
		"retrieved by runbook for “How do I restart checkout?”: rank 2, score 0.433, dropped (budget)",
	)
}

// TestNoRetrievalNoSection checks that a run without retrieval units shows no
// retrieval heading.
func TestNoRetrievalNoSection(t *testing.T) {
	if units := section(t, page(t, part1(t)), "units"); strings.Contains(units, "Retrievals") {
		t.Error("a run without retrieval units shows a Retrievals heading")
	}
}
