// The retrieval record in a real browser: the units pane of a run with
// retrieval units lists every candidate with its score and outcome.

package lenscheck

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/agentfootprint/agentfootprint-go/lens/lenstest"
)

func TestRetrievalRecord(t *testing.T) {
	bctx := browser(t)
	rec, err := lenstest.Retrieval(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	tb := open(t, bctx, "retrieval", rec, 800, 900, false)
	rows := eval[[][]string](t, tb, `Array.from(document.querySelectorAll('#units .retrieval[data-retrieval="runbook"] table.candidates tbody tr'))
		.map(tr => [tr.dataset.passage, tr.dataset.picked, tr.cells[3].innerText, tr.cells[5].innerText.trim()])`)
	want := [][]string{
		{"restart-checkout", "true", "0.535", "● picked placed in the request"},
		{"checkout-history", "false", "0.433", "○ dropped its text did not fit what was left of the budget"},
		{"page-oncall", "true", "0.289", "● picked placed in the request"},
		{"rotate-keys", "false", "0.000", "○ dropped its score is below the threshold 0.1"},
	}
	if fmt.Sprintf("%q", rows) != fmt.Sprintf("%q", want) {
		t.Errorf("candidate rows\n got  %q\n want %q", rows, want)
	}
	summary := eval[string](t, tb, `document.querySelector('#units .retrieval .summary').innerText`)
	if summary != "picked 2 of 4 candidates · top 3 · threshold 0.1 · 110 of the 120-character budget spent" {
		t.Errorf("summary %q", summary)
	}
	// The passage link lands on its unit.
	if got := eval[string](t, tb, `document.querySelector('#units .retrieval a[href="#unit-page-oncall"]') ? document.getElementById('unit-page-oncall').tagName : ''`); got != "DETAILS" {
		t.Errorf("the page-oncall link does not land on its unit (%q)", got)
	}
	noOverflow(t, tb)
	noNetwork(t, tb)
	if _, err := chromedp.Run(tb.ctx, chromedp.Evaluate[chromedp.Void](`document.querySelector('#units .retrieval').scrollIntoView({block: 'start'})`)); err != nil {
		t.Fatal(err)
	}
	shoot(t, tb, "retrieval")
}
