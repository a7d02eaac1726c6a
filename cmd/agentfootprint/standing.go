// This file holds how the CLI prints an answer's standing for a person: the standing word
// with what it means, each reason with one sentence of meaning, and the checks that ran in
// plain words. `demo` and `show` print it the same way.

package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/honesty/assess"
)

// standingMeaning says in one sentence what each standing word claims.
var standingMeaning = map[string]string{
	"ask":          "the answer waits on the person: a question is still open.",
	"not-sure":     "at least one reason below holds: some ground the answer may rest on was not covered, or not stated.",
	"known":        "the answer layer found positive support for the answer.",
	"consistent":   "checks ran and none fired: nothing in the record contradicts the answer (which does not make it right).",
	"not-assessed": "no check had anything to read, so nothing was judged.",
}

// reasonMeaning says in one sentence what each reason word means.
var reasonMeaning = map[string]string{
	"asked":                     "a question put to the person is still open, and the answer waits for it.",
	"argument-asked":            "an argument the answer rests on waits for the person to confirm it.",
	"argument-assumed":          "an argument was filled with a default nobody confirmed, so the answer rests on an assumption.",
	"argument-unverified":       "the model chose an argument that a rule governs (such as a time window), and nothing the person said confirms that choice.",
	"argument-read":             "an argument was taken from earlier context rather than from what the person said this turn.",
	"value-contingent":          "a value in the answer holds only under a condition the record does not settle.",
	"coverage-gap":              "a tool declared ground it did not check or cannot see, and the answer may rest on that ground.",
	"declared-absent":           "a tool declared it found nothing; that absence is only as wide as the ground it checked.",
	"empty-undeclared":          "a tool returned an empty result without saying what it covered, so the emptiness proves nothing.",
	"period-not-held":           "the source holds none of the time the tool searched, so the result says nothing about that time.",
	"period-partly-held":        "the source holds only part of the time the tool searched; the rest is not covered.",
	"period-unknown":            "the tool could not say which time its source holds.",
	"period-undeclared":         "the tool did not declare which time its result covers.",
	"period-differs-from-asked": "the time the tool read is not the time the question asked about, so the result answers only part of the question.",
	"period-beyond-retention":   "the time asked about is older than the source keeps, so no search could cover it.",
	"sources-conflict":          "two sources the answer uses disagree.",
	"value-unsupported":         "a value in the answer is not found in anything the tools returned.",
	"value-survived-revision":   "a value that a tool later revised still appears in the answer.",
	"derived-from-reading":      "a value in the answer was worked out by the model, not read from a tool.",
	"stopped-early":             "the run stopped before the model finished.",
	"steps-unfinished":          "steps the agent set out to do were not done.",
	"answer-check-failed":       "a check on the answer itself failed.",
	"check-unreachable":         "a check could not run, so what it would have judged stays unjudged.",
}

// checkWords names each check by what it looks at.
var checkWords = map[string]string{
	"argument-rules": "arguments against the rules that govern them",
	"tool-coverage":  "results for what they declare they covered",
	"result-shape":   "results for an empty answer nobody declared",
	"result-period":  "results for the time they cover",
}

// meaningOf returns the sentence for word in m, or a plain fallback for a word this binary
// does not know (a newer record).
func meaningOf(m map[string]string, word string) string {
	if s, ok := m[word]; ok {
		return s
	}
	return "(this version of agentfootprint has no description of it)"
}

// writeStanding prints the standing, its reasons and the checks that ran.
func writeStanding(w io.Writer, standing string, reasons []string, checked []event.Check) error {
	var b strings.Builder
	b.WriteString(hanging("Standing: ", standing+" — "+meaningOf(standingMeaning, standing), "  "))
	if len(reasons) > 0 {
		b.WriteString("  Why:\n")
		for _, r := range reasons {
			b.WriteString(hanging("  - ", r+": "+meaningOf(reasonMeaning, r), "    "))
		}
	}
	if len(checked) > 0 {
		b.WriteString("  Checked:\n")
		for _, c := range checked {
			what := checkWords[c.Check]
			if what == "" {
				what = c.Check
			}
			fmt.Fprintf(&b, "  - %s: could read %d of %d", what, c.Ran, c.Of)
			if c.Ran == 0 {
				b.WriteString(" (it applied to none of them)")
			}
			b.WriteByte('\n')
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// assessmentOf folds the standing of a recorded turn exactly as the run did at its end, or
// returns nil when nothing was folded (no results layer, or no record).
func assessmentOf(rec *record.Record) *assess.Assessment {
	if a := rec.Assessment(); !record.NotFolded(a) {
		return a
	}
	return nil
}

// standingWords splits an assessment into the reason words and checks writeStanding prints.
func standingWords(a *assess.Assessment) ([]string, []event.Check) {
	var reasons []string
	for _, r := range a.Reasons {
		reasons = append(reasons, r.Reason)
	}
	checked := []event.Check{}
	for _, c := range a.Checked {
		checked = append(checked, event.Check{Layer: c.Layer, Check: c.Check, Ran: c.Ran, Of: c.Of})
	}
	return reasons, checked
}

// hanging writes text after prefix, wrapped at 100 columns, continuation lines after indent.
func hanging(prefix, text, indent string) string {
	var b strings.Builder
	line := prefix
	bare := true
	for _, word := range strings.Fields(text) {
		if !bare && len([]rune(line))+1+len([]rune(word)) > 100 {
			b.WriteString(line + "\n")
			line, bare = indent, true
		}
		if !bare {
			line += " "
		}
		line += word
		bare = false
	}
	b.WriteString(line + "\n")
	return b.String()
}
