// Tests for the limits block and answerCoverage: the worked shape, the vectors R12 to R14,
// the overflow and in-progress scenarios, and golden files for whole blocks.

package limits

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	"github.com/agentfootprint/agentfootprint-go/coverage/wire"
	"github.com/agentfootprint/agentfootprint-go/honesty/limits"
)

var update = flag.Bool("update", false, "rewrite golden files")

var (
	q      = coverage.Span{From: "2026-09-26T09:00:00Z", To: "2026-09-26T10:00:00Z"}
	stale  = coverage.Period{Queried: q, Held: coverage.Held{Span: coverage.Span{From: "2026-08-27T02:00:00Z", To: "2026-09-26T02:00:00Z"}}}
	fresh  = coverage.Period{Queried: q, Held: coverage.Held{Span: coverage.Span{From: "2026-09-26T00:00:00Z", To: "2026-09-26T12:00:00Z"}}}
	unk    = coverage.Period{Queried: q, Held: coverage.Held{Unknown: true}, ReadAt: "2026-09-26T10:00:03Z"}
	offset = coverage.Period{Queried: coverage.Span{From: "2026-09-26T09:00:00+00:00", To: "2026-09-26T10:00:00+00:00"},
		Held: coverage.Held{Span: coverage.Span{From: "2026-08-27T02:00:00Z", To: "2026-09-26T02:00:00Z"}}}
)

// rowsOf reads a tool result through the one reading channel, as dispatch does.
func rowsOf(t *testing.T, result any, tool, id string, iteration int) []coverage.DeclaredCoverage {
	t.Helper()
	rd := boundary.Read(result, tool, nil)
	res, ok := rd, rd.Record
	if !ok {
		t.Fatalf("%s: result not recognized", tool)
	}
	var out []coverage.DeclaredCoverage
	for _, f := range res.Declared {
		out = append(out, f.Row(tool, id, iteration))
	}
	return out
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func s1Absence(p coverage.Period) coverage.Envelope {
	return must(coverage.Absent(coverage.AbsenceDecl{What: "failed backup runs for host-103",
		Checked: []coverage.Item{{What: "every job in the 02:00 export"}}, Period: &p}))
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s (-golden +got):\n%s", name, diff)
	}
}

func TestWorkedShape(t *testing.T) { // S2, the worked shape exactly
	rows := rowsOf(t, s1Absence(stale), "backup_runs", "c1", 1)
	got := Attach("No failures.", CoverageBlock(rows))
	want := "No failures.\n\n---\n\n" + limits.Heading + "\n\nChecked:\n- every job in the 02:00 export\n\nPeriod:\n- " +
		"backup_runs queried 2026-09-26T09:00:00Z to 2026-09-26T10:00:00Z; the store holds 2026-08-27T02:00:00Z to 2026-09-26T02:00:00Z"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	golden(t, "worked_shape", got)
}

func TestHeading(t *testing.T) {
	if !strings.HasPrefix(limits.Heading, wire.CoverageBlockHeading) || !strings.HasSuffix(limits.Heading, ":") || strings.Contains(limits.Heading, "\n") {
		t.Errorf("heading %q must be one line starting with the published heading and ending with a colon", limits.Heading)
	}
}

func TestAttach(t *testing.T) { // R12, R13 and the assembly rule
	block := CoverageBlock([]coverage.DeclaredCoverage{{Kind: boundary.KindLedger, ToolName: "t", Checked: []coverage.Item{{What: "a"}}}})
	tests := []struct {
		name   string
		answer string
		blocks []string
		want   string
	}{
		{"R12 no declarations", "x  \n", []string{CoverageBlock(nil)}, "x  \n"},
		{"no blocks at all", " y\t", nil, " y\t"},
		{"R13 empty answer", "", []string{block}, block},
		{"white-space answer", " \n\t", []string{block}, block},
		{"trailing space trimmed", "Done.  \n\n", []string{block}, "Done." + limits.Separator + block},
		{"two blocks", "A", []string{block, "Assumed:\n- w = 2h (t)"}, "A" + limits.Separator + block + "\n\nAssumed:\n- w = 2h (t)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Attach(tt.answer, tt.blocks...); got != tt.want {
				t.Errorf("Attach = %q, want %q", got, tt.want)
			}
		})
	}
	if !strings.HasPrefix(Attach("", block), limits.Heading+"\n\n") || strings.Contains(Attach("", block), "---") {
		t.Error("R13: an empty answer's block must start with the heading and carry no separator")
	}
}

func periodLines(block string) []string {
	_, after, ok := strings.Cut(block, "Period:\n")
	if !ok {
		return nil
	}
	sec, _, _ := strings.Cut(after, "\n\n")
	return strings.Split(sec, "\n")
}

func TestPeriodDedup(t *testing.T) { // R14, S7
	wrapSame := must(coverage.Wrap(s1Absence(stale), coverage.LedgerDecl{Checked: []coverage.Item{{What: "the export"}}, Period: &stale}))
	wrapTwo := must(coverage.Wrap(s1Absence(stale), coverage.LedgerDecl{Checked: []coverage.Item{{What: "the export"}}, Period: &fresh}))
	wrapSpelled := must(coverage.Wrap(s1Absence(stale), coverage.LedgerDecl{Checked: []coverage.Item{{What: "the export"}}, Period: &offset}))
	tests := []struct {
		name   string
		result any
		lines  int
	}{
		{"one period in both envelopes", wrapSame, 1},
		{"two different periods", wrapTwo, 2},
		{"the same instant spelled two ways", wrapSpelled, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows := rowsOf(t, tt.result, "backup_runs", "c1", 1)
			if len(rows) != 2 || rows[0].Kind != boundary.KindLedger || rows[1].Kind != boundary.KindAbsence {
				t.Fatalf("rows = %+v, want ledger then absence", rows)
			}
			if got := periodLines(CoverageBlock(rows)); len(got) != tt.lines {
				t.Errorf("period lines = %q, want %d", got, tt.lines)
			}
		})
	}
	// The same period from two calls prints once per call.
	two := append(rowsOf(t, s1Absence(stale), "backup_runs", "c1", 1), rowsOf(t, s1Absence(stale), "backup_runs", "c2", 1)...)
	if got := periodLines(CoverageBlock(two)); len(got) != 2 {
		t.Errorf("two calls: period lines = %q, want 2", got)
	}
}

func TestOverflowAndDedup(t *testing.T) { // S17
	var rows []coverage.DeclaredCoverage
	for call := 0; call < 2; call++ {
		var items []coverage.Item
		for i := 0; i < 7; i++ {
			items = append(items, coverage.Item{What: fmt.Sprintf("shard %02d", call*7+i), Why: "nightly copy"})
		}
		rows = append(rows, coverage.DeclaredCoverage{Kind: boundary.KindLedger, ToolName: "backup_runs", ToolCallID: fmt.Sprint("c", call), Checked: items})
	}
	rows = append(rows, coverage.DeclaredCoverage{Kind: boundary.KindLedger, ToolName: "other", ToolCallID: "c9",
		Checked: []coverage.Item{{What: "shard 03", Why: "nightly copy", Short: "s3"}, {What: "shard 03", Why: "another reason"}}})
	block := CoverageBlock(rows)
	lines := strings.Split(strings.TrimPrefix(block, limits.Heading+"\n\nChecked:\n"), "\n")
	if len(lines) != maxLines+1 {
		t.Fatalf("got %d bullets, want %d:\n%s", len(lines), maxLines+1, block)
	}
	last := lines[maxLines]
	if !strings.HasPrefix(last, "- … ") || !strings.Contains(last, "3") {
		t.Errorf("overflow bullet %q must start with \"- … \" and carry the count 3 (14 + 1 distinct - 12)", last)
	}
	if strings.Count(block, "shard 03 — nightly copy") != 1 {
		t.Error("a duplicate (same what and why) printed twice")
	}
	golden(t, "overflow", block)

	// Exactly S17: 14 distinct plus one duplicate leaves 2 out.
	s17 := CoverageBlock(append(append([]coverage.DeclaredCoverage{}, rows[:2]...), coverage.DeclaredCoverage{Kind: boundary.KindAbsence,
		ToolName: "backup_runs", Checked: []coverage.Item{{What: "shard 00", Why: "nightly copy"}}}))
	if !strings.HasSuffix(s17, "- … 2 more not shown here; the run record lists them all") {
		t.Errorf("S17 overflow line wrong:\n%s", s17)
	}
}

func TestInProgressLine(t *testing.T) { // S15
	led := must(coverage.Wrap([]string{"ok"}, coverage.LedgerDecl{Checked: []coverage.Item{{What: "the 02:00 export"}},
		InProgress: []coverage.InProgressItem{{What: "sessions syncing", Count: 96, Why: "since 08:10"}, {What: "a rebuild"}}, Period: &fresh}))
	rows := rowsOf(t, led, "backup_runs", "c1", 1)
	block := CoverageBlock(rows)
	want := labelInProgress + ":\n- backup_runs: sessions syncing (96) — since 08:10\n- backup_runs: a rebuild"
	if !strings.HasSuffix(block, want) {
		t.Errorf("block does not end with the In progress section:\n%s", block)
	}
	golden(t, "in_progress", block)
}

func TestAllSections(t *testing.T) {
	abs := must(coverage.Absent(coverage.AbsenceDecl{What: "zoning entries for port 7",
		Checked:     []coverage.Item{{What: "fabric-a: live zone db"}, {What: "window: the last 24h", Why: "log retention", Short: "the last 24h"}},
		NotChecked:  []coverage.Item{{What: "archived zones", Why: "older than 24h", Kind: coverage.KindScope}},
		CannotCover: []coverage.Item{{What: "fabric b ports", Why: "one fabric per collector"}},
		Period:      &unk}))
	led := must(coverage.Wrap(map[string]any{"rows": []any{}}, coverage.LedgerDecl{
		Checked:    []coverage.Item{{What: "fabric-a: live zone db"}, {What: "line one\nline two"}},
		NotChecked: []coverage.Item{{What: "archived zones", Why: "older than 24h"}},
		InProgress: []coverage.InProgressItem{{What: "a zone merge", Count: 2}}, Period: &stale}))
	rows := append(rowsOf(t, abs, "zone_lookup", "c1", 1), rowsOf(t, led, "backup_runs", "c2", 2)...)
	got := Attach("Port 7 has no zoning entries.\n", CoverageBlock(rows))
	golden(t, "all_sections", got)
	if strings.Contains(got, "the last 24h\n") || strings.Contains(got, "line one\nline two") {
		t.Error("a short form was printed, or a line break inside an item opened a new line")
	}
}

func TestAnswerCoverage(t *testing.T) { // S16
	if ac := AnswerCoverageOf(nil, nil); ac != nil {
		t.Errorf("nothing declared: got %+v, want nil", ac)
	}
	rows := rowsOf(t, s1Absence(stale), "backup_runs", "c1", 1)
	b, err := json.Marshal(AnswerCoverageOf(rows, nil))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"checked":[{"what":"every job in the 02:00 export"}],"notChecked":[],"cannotCover":[],` +
		`"periods":[{"toolName":"backup_runs","toolCallId":"c1","queried":{"from":"2026-09-26T09:00:00Z","to":"2026-09-26T10:00:00Z"},` +
		`"held":{"from":"2026-08-27T02:00:00Z","to":"2026-09-26T02:00:00Z"}}]}`
	if string(b) != want {
		t.Errorf("answerCoverage:\n got %s\nwant %s", b, want)
	}

	// Uncapped, record form, in-progress per call, assumed values with hidden ones redacted.
	var many []coverage.Item
	for i := 0; i < 20; i++ {
		many = append(many, coverage.Item{What: fmt.Sprint("item ", i), Short: "i"})
	}
	ac := AnswerCoverageOf([]coverage.DeclaredCoverage{
		{Kind: boundary.KindLedger, ToolName: "t", ToolCallID: "c1", Checked: many, Period: &unk,
			InProgress: []coverage.InProgressItem{{What: "w", Count: 3}}},
	}, []limits.Assumed{{ToolName: "search_logs", Argument: "window", Value: "2h"}, {ToolName: "search_logs", Argument: "token", Value: "s3cret", Hidden: true}})
	out, _ := json.Marshal(ac)
	golden(t, "answer_coverage", string(out)+"\n")
	if len(ac.Checked) != 20 || ac.Assumed[1].Value != "REDACTED" || strings.Contains(string(out), "s3cret") {
		t.Errorf("answerCoverage lost items or printed a hidden value: %s", out)
	}
}
