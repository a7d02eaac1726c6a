package coverage

import (
	"bytes"
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files (and canonical-notes.json)")

func TestCanonicalNotesUpToDate(t *testing.T) {
	want, err := buildCanonicalNotes()
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("canonical-notes.json", want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile("canonical-notes.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("coverage/canonical-notes.json disagrees with the Go constants; run `go generate ./coverage`")
	}
	if !bytes.Equal(CanonicalNotes(), want) {
		t.Fatal("the embedded canonical notes are stale; rebuild after `go generate ./coverage`")
	}
}

// TestStaticTextRules enforces the rules every static sentence keeps: no digit, no < > &, no
// U+2028 or U+2029, and wire keys named in backticks in their exact spelling.
func TestStaticTextRules(t *testing.T) {
	texts := map[string]string{
		"AbsenceNote": AbsenceNote, "AbsenceNoteHeldOnly": AbsenceNoteHeldOnly, "CoverageNote": CoverageNote,
		"SemanticsNote": SemanticsNote, "ClauseNotHeld": ClauseNotHeld, "ClausePartlyHeld": ClausePartlyHeld,
		"ClauseUnknown": ClauseUnknown, "InProgressClause": InProgressClause, "CoverageBlockHeading": CoverageBlockHeading,
		"periodLineHeldUnknown": periodLineHeldUnknown, "periodLineReadAt": periodLineReadAt,
	}
	wireWords := map[string]bool{}
	for _, l := range [][]string{AbsenceKeys(), CoverageKeys(), SemanticsKeys(), ItemKeys(), ProvenanceKeys(), InProgressItemKeys()} {
		for _, k := range l {
			wireWords[k] = true
		}
	}
	for _, k := range []string{"is_counter", "period.verdict", "period.queried", "period.held", "not-held", "partly-held", "unknown", "what"} {
		wireWords[k] = true
	}
	tick := regexp.MustCompile("`([^`]*)`")
	for name, s := range texts {
		if strings.ContainsAny(s, "0123456789<>&\u2028\u2029") {
			t.Errorf("%s holds a digit, <, >, & or a line separator", name)
		}
		for _, m := range tick.FindAllStringSubmatch(s, -1) {
			if !wireWords[m[1]] {
				t.Errorf("%s names `%s`, which is not a wire key", name, m[1])
			}
		}
	}
	// Each note and clause names the wire keys its points are about.
	mustName := map[string][]string{
		"AbsenceNote":         {"checked", "not_checked", "cannot_cover"},
		"AbsenceNoteHeldOnly": {"checked", "not_checked", "cannot_cover"},
		"CoverageNote":        {"checked", "not_checked", "cannot_cover"},
		"SemanticsNote":       {"grain", "provenance", "is_counter", "measured_at", "age_seconds", "not_covered"},
		"ClauseNotHeld":       {"period.verdict", "not-held", "period.queried", "period.held"},
		"ClausePartlyHeld":    {"period.verdict", "partly-held", "period.queried", "period.held"},
		"ClauseUnknown":       {"period.verdict", "unknown", "period.queried"},
		"InProgressClause":    {"in_progress"},
	}
	for name, keys := range mustName {
		for _, k := range keys {
			if !strings.Contains(texts[name], "`"+k+"`") {
				t.Errorf("%s does not name `%s`", name, k)
			}
		}
	}
	// The held-only note makes no claim about repeating the call or about substitution.
	if strings.Contains(AbsenceNoteHeldOnly, "same arguments") || strings.Contains(AbsenceNoteHeldOnly, "put in place") {
		t.Error("AbsenceNoteHeldOnly keeps a completeness claim it must drop")
	}
}
