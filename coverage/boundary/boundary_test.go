package boundary

import (
	"bytes"
	"encoding/json"
	"flag"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/internal/honesty/rowkind"

	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/coverage/wire"
)

var update = flag.Bool("update", false, "rewrite golden files")

const (
	qJSON = `{"from":"2026-09-26T09:00:00Z","to":"2026-09-26T10:00:00Z"}`
	hJSON = `{"from":"2026-08-27T02:00:00Z","to":"2026-09-26T02:00:00Z"}`
	seedP = `{"queried":` + qJSON + `,"held":` + hJSON + `}`
)

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := wire.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\ngot  %s\nwant %s", name, got, want)
	}
}

// ledger36 is a minted ledger with lists, an in-progress list and a period the store does not
// hold.
func ledger36(t *testing.T) coverage.Envelope {
	t.Helper()
	c, err := coverage.WrapData(map[string]any{"rows": 3}, []byte(`{"checked":["every session"],"cannotCover":[{"what":"host paths","why":"no collector"}],
		"inProgress":["  vm-42 backup  ",{"what":"sessions syncing","count":96,"short":"syncing","why":" since 08:10 "}],"period":`+seedP+`}`))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A coverageDeclared row keeps its key order, writes [] for empty lists, and round-trips.
func TestDeclaredCoverageRow(t *testing.T) {
	rd := Read(ledger36(t), "backup_runs", nil)
	r, ok := rd, rd.Record
	if !ok || len(r.Declared) != 1 {
		t.Fatalf("read %v %+v", ok, r)
	}
	row := r.Declared[0].Row("backup_runs", "call-1", 2)
	b := mustJSON(t, row)
	golden(t, "row_ledger.json", []byte(b))
	var back coverage.DeclaredCoverage
	if err := json.Unmarshal([]byte(b), &back); err != nil || !reflect.DeepEqual(back, row) {
		t.Errorf("round trip: %v\n%+v\n%+v", err, back, row)
	}
	empty := mustJSON(t, Facts{Kind: KindLedger}.Row("t", "", 1))
	if empty != `{"kind":"ledger","toolName":"t","iteration":1,"checked":[],"notChecked":[],"cannotCover":[]}` {
		t.Errorf("empty row %s", empty)
	}
	if v, ok := r.Verdict(); !ok || v != coverage.VerdictNotHeld {
		t.Errorf("verdict %v %v", v, ok)
	}
}

func TestPeriodRow(t *testing.T) {
	rows := []PeriodRow{
		{Kind: rowkind.Period, Turn: 2, ToolCallID: "a", ToolName: "backup_runs", Iteration: 3, Verdict: RowVerdict(coverage.VerdictNotHeld)},
		{Kind: rowkind.Period, Turn: 2, ToolCallID: "b", ToolName: "search_logs", Iteration: 3, Verdict: VerdictUndeclared, Argument: "window"},
	}
	want := []string{
		`{"kind":"period","turn":2,"toolCallId":"a","toolName":"backup_runs","iteration":3,"verdict":"not-held"}`,
		`{"kind":"period","turn":2,"toolCallId":"b","toolName":"search_logs","iteration":3,"verdict":"undeclared","argument":"window"}`,
	}
	for i, r := range rows {
		got := mustJSON(t, r)
		if got != want[i] {
			t.Errorf("got %s", got)
		}
	}
}

// Read finds, once, what an absence wrapped in a ledger declares, what is left off the record,
// and what the model is served; a plain value is returned as it came.
func TestRead(t *testing.T) {
	a, err := coverage.Absent(coverage.AbsenceDecl{
		What:    "failed backup runs",
		Checked: []coverage.Item{{What: "every job in the 02:00 export", Short: "02:00 export"}},
		Period:  &coverage.Period{Queried: coverage.Span{From: "2026-09-26T09:00:00Z", To: "2026-09-26T10:00:00Z"}, Held: coverage.Held{Unknown: true}},
	})
	if err != nil {
		t.Fatal(err)
	}
	c, err := coverage.Wrap(a, coverage.LedgerDecl{Checked: []coverage.Item{{What: "the export"}}})
	if err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	w := NewWarner(slog.New(slog.NewTextHandler(&logs, nil)))
	b := Read(c, "backup_runs", w)
	if b.Recognized != "ledger" || !b.Record || !b.Absent || len(b.Declared) != 2 {
		t.Fatalf("reading %+v", b)
	}
	if got := b.Declared[1]; got.Kind != KindAbsence || got.LookedFor != "failed backup runs" || got.Checked[0].Short != "02:00 export" || got.Period == nil || !got.Period.Held.Unknown {
		t.Errorf("absence facts %+v", got)
	}
	if !b.Changed || !strings.Contains(mustJSON(t, b.Served), `"verdict":"unknown"`) || strings.Contains(mustJSON(t, b.Served), `"short"`) {
		t.Errorf("served %s", mustJSON(t, b.Served))
	}
	if again := Read(b.Served, "backup_runs", nil); again.Changed || mustJSON(t, again.Served) != mustJSON(t, b.Served) {
		t.Errorf("serving twice changed the value: %s", mustJSON(t, again))
	}
	if logs.Len() != 0 {
		t.Errorf("warned on a well-formed envelope: %s", logs.String())
	}
	plain := map[string]any{"rows": 3}
	if p := Read(plain, "t", nil); p.Recognized != "none" || p.Record || p.Changed || !reflect.DeepEqual(p.Served, plain) {
		t.Errorf("plain %+v", p)
	}
	// A malformed period in a foreign absence is left off the record, named, and warned once.
	foreign := map[string]any{"af_absent": true, "looked_for": "x", "checked": []any{"y"}, "period": map[string]any{"queried": "soon"}}
	for range 2 {
		f := Read(foreign, "t", w)
		r, ok := f, f.Record
		if !ok || r.Declared[0].Period != nil || len(r.Problems) != 1 || r.Problems[0].Field != "period.queried" {
			t.Fatalf("foreign %+v", r)
		}
	}
	if n := strings.Count(logs.String(), "left off the record"); n != 1 {
		t.Errorf("%d warnings, want 1: %s", n, logs.String())
	}
}

func TestReadersAndNilWarner(t *testing.T) {
	if NewWarner(nil) != nil {
		t.Error("a nil logger gave a Warner")
	}
}
