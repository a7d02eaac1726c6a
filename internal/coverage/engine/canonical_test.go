package engine

import (
	"bytes"
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"

	cw "github.com/agentfootprint/agentfootprint-go/coverage/wire"
)

// canonicalPath is coverage/canonical-notes.json, which the package coverage publishes.
const canonicalPath = "../../../coverage/canonical-notes.json"

var update = flag.Bool("update", false, "rewrite golden files (and canonical-notes.json)")

func TestCanonicalNotesUpToDate(t *testing.T) {
	want, err := buildCanonicalNotes()
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(canonicalPath, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(canonicalPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("coverage/canonical-notes.json disagrees with the Go constants; run `go generate ./coverage`")
	}
}

// TestStaticTextRules enforces the rules every static sentence keeps: no digit, no < > &, no
// U+2028 or U+2029, and wire keys named in backticks in their exact spelling.
func TestStaticTextRules(t *testing.T) {
	texts := map[string]string{
		"AbsenceNote": AbsenceNote, "AbsenceNoteHeldOnly": AbsenceNoteHeldOnly, "CoverageNote": CoverageNote,
		"SemanticsNote": SemanticsNote, "ClauseNotHeld": ClauseNotHeld, "ClausePartlyHeld": ClausePartlyHeld,
		"ClauseUnknown": ClauseUnknown, "InProgressClause": InProgressClause, "CoverageBlockHeading": cw.CoverageBlockHeading,
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

// TestCanonicalNotesNames pins the names canonical-notes.json publishes. A concept the TypeScript
// implementation also has carries its TypeScript constant name, so a minter reading one file can
// read the other; the source column says where each TypeScript name was read. Everything else is a
// Go-only concept under its Go name. A name added, dropped or renamed fails here first.
func TestCanonicalNotesNames(t *testing.T) {
	const (
		tsFile   = "the TypeScript canonical-notes.json groups (scripts/gen-canonical-notes.mjs)"
		seed000  = "seed 000 (coverage/period .d.ts)"
		tsSource = "the TypeScript source (coverage/inProgress.ts, semantics/types.ts)"
	)
	typescript := map[string]map[string]string{
		"notes":    {"ABSENCE_NOTE": tsFile, "COVERAGE_NOTE": tsFile, "SEMANTICS_NOTE": tsFile},
		"markers":  {"ABSENCE_MARKER": tsFile, "COVERAGE_MARKER": tsFile, "SEMANTICS_MARKER": tsFile},
		"headings": {"COVERAGE_BLOCK_HEADING": tsFile},
		"wire":     {"PERIOD_WIRE": seed000 + " and " + tsFile, "IN_PROGRESS_WIRE": tsFile, "COUNTER_AGGREGATION_WORDS": tsSource},
		"served":   {"SERVED_VERDICT_KEY": seed000, "PERIOD_VERDICT_CLAUSES": seed000, "IN_PROGRESS_CLAUSE": tsSource},
	}
	goOnly := map[string][]string{
		"wire": {"AbsenceKeys", "CoverageKeys", "CoveredResultKeys", "SemanticsKeys", "GrainKeys", "ClarifyKeys",
			"RenderKeys", "ItemKeys", "InProgressItemKeys", "ProvenanceKeys", "ItemKinds", "RecordOnlyItemKeys", "MaxShortChars"},
		"literals": {"AbsenceOutcome", "RefusedPrefix"},
		"served":   {"AbsenceNoteHeldOnly"},
	}
	v, err := DecodeJSON(mustRead(t, canonicalPath))
	if err != nil {
		t.Fatal(err)
	}
	doc := v.(Object)
	if got := strings.Join(doc.Keys(), ","); got != "$comment,notes,markers,headings,wire,literals,served" {
		t.Errorf("groups %s: the TypeScript groups (notes, markers, headings, wire) come first, in its order", got)
	}
	for _, group := range doc.Keys()[1:] {
		g, _ := doc.Get(group)
		for _, name := range g.(Object).Keys() {
			_, isTS := typescript[group][name]
			isGo := false
			for _, n := range goOnly[group] {
				isGo = isGo || n == name
			}
			if !isTS && !isGo {
				t.Errorf("%s.%s is neither a TypeScript name nor a known Go-only name", group, name)
			}
			if isTS != (strings.ToUpper(name) == name) {
				t.Errorf("%s.%s: TypeScript names are in capitals, Go-only names are not", group, name)
			}
		}
		for name, src := range typescript[group] {
			if _, ok := g.(Object).Get(name); !ok {
				t.Errorf("%s.%s (named in %s) is missing", group, name, src)
			}
		}
	}
	// The values under the shared names are the Go constants.
	notes, _ := doc.Get("notes")
	if n, _ := notes.(Object).Get("SEMANTICS_NOTE"); n != SemanticsNote {
		t.Error("SEMANTICS_NOTE is not SemanticsNote")
	}
	wire, _ := doc.Get("wire")
	pw, _ := wire.(Object).Get("PERIOD_WIRE")
	if r, _ := pw.(Object).Get("readAt"); r != "read_at" {
		t.Errorf("PERIOD_WIRE.readAt = %v", r)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
