package engine

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	cw "github.com/agentfootprint/agentfootprint-go/coverage/wire"
)

func same(a, b any) bool {
	ia, okA := holderID(a)
	ib, okB := holderID(b)
	return okA && okB && ia == ib
}

const coveredP = `{"queried":` + qJSON + `,"held":{"from":"2026-09-26T00:00:00Z","to":"2026-09-26T12:00:00Z"}}`
const seedP = `{"queried":` + qJSON + `,"held":` + hJSON + `}`

func TestServedInProgress(t *testing.T) { // v38
	c := ledger36(t, coveredP)
	out, changed := Served(c)
	if !changed {
		t.Fatal("not changed")
	}
	ac, _ := out.(Object).Get(cw.CoverageMarker)
	ip, _ := ac.(Object).Get(InProgressKey)
	if got := mustJSON(t, ip.([]any)[1]); got != `{"what":"sessions syncing","why":"since 08:10","count":96}` {
		t.Errorf("item %s", got)
	}
	if note, _ := ac.(Object).Get("note"); note != CoverageNote+" "+InProgressClause {
		t.Errorf("note %v", note)
	}
	again, changed2 := Served(out)
	if changed2 || !same(again, out) {
		t.Error("serving twice changed the value")
	}
	golden(t, "served_in_progress.json", []byte(mustJSON(t, out)))
	// The period clause comes after the in-progress clause.
	out, _ = Served(ledger36(t, seedP))
	ac, _ = out.(Object).Get(cw.CoverageMarker)
	if note, _ := ac.(Object).Get("note"); note != CoverageNote+" "+InProgressClause+" "+ClauseNotHeld {
		t.Errorf("note %v", note)
	}
	if again, ch := Served(out); ch || !same(again, out) {
		t.Error("not idempotent with both clauses")
	}
}

func TestServedAbsence(t *testing.T) { // v39
	mk := func(p string) *Absence {
		return must(AbsentData(j(t, `{"what":"failed backup runs","checked":["every job in the 02:00 export"],"period":`+p+`}`)))
	}
	out, ch := Served(mk(seedP))
	note, _ := out.(Object).Get("note")
	if !ch || note != AbsenceNoteHeldOnly+" "+ClauseNotHeld {
		t.Errorf("not-held note %v", note)
	}
	if s := mustJSON(t, out); !strings.Contains(s, `"verdict":"not-held"}`) {
		t.Errorf("period does not end with the verdict: %s", s)
	}
	golden(t, "served_absent_not_held.json", []byte(mustJSON(t, out)))
	out, _ = Served(mk(`{"queried":` + qJSON + `,"held":"unknown"}`))
	if note, _ := out.(Object).Get("note"); note != AbsenceNote+" "+ClauseUnknown {
		t.Errorf("unknown note %v", note)
	}
	golden(t, "served_absent_unknown.json", []byte(mustJSON(t, out)))
	a := mk(coveredP)
	if out, ch := Served(a); ch || out != any(a) {
		t.Error("covered absence changed")
	}
	out, _ = Served(mk(`{"queried":` + qJSON + `,"held":{"from":"2026-09-26T09:30:00Z","to":"2026-09-26T12:00:00Z"}}`))
	golden(t, "served_absent_partly_held.json", []byte(mustJSON(t, out)))
	// Record-only keys are stripped.
	out, _ = Served(fullAbsence(t))
	if s := mustJSON(t, out); strings.Contains(s, `"short"`) || strings.Contains(s, `"kind"`) {
		t.Errorf("record-only keys served: %s", s)
	}
	golden(t, "served_absent_full.json", []byte(mustJSON(t, out)))
}

func TestServedNested(t *testing.T) { // v40
	inner := must(AbsentData(j(t, `{"what":"x","checked":["y"],"period":`+seedP+`}`)))
	outer := must(WrapData(inner, j(t, `{"checked":["z"],"period":{"queried":`+qJSON+`,"held":{"from":"2026-09-26T09:30:00Z","to":"2026-09-26T12:00:00Z"}}}`)))
	out, _ := Served(outer)
	ac, _ := out.(Object).Get(cw.CoverageMarker)
	op, _ := ac.(Object).Get(PeriodKey)
	if v, _ := op.(Object).Get("verdict"); v != "partly-held" {
		t.Errorf("outer %v", v)
	}
	if n, _ := ac.(Object).Get("note"); n != CoverageNote+" "+ClausePartlyHeld {
		t.Errorf("outer note %v", n)
	}
	res, _ := out.(Object).Get("result")
	ip, _ := res.(Object).Get(PeriodKey)
	if v, _ := ip.(Object).Get("verdict"); v != "not-held" {
		t.Errorf("inner %v", v)
	}
	golden(t, "served_nested.json", []byte(mustJSON(t, out)))

	s := described40(t)
	out, _ = Served(s)
	if k := strings.Join(out.(Object).Keys(), ","); k != "facts,provenance,period,note" {
		t.Errorf("served semantics keys %s", k)
	}
	if n, _ := out.(Object).Get("note"); n != SemanticsNote+" "+ClauseNotHeld {
		t.Errorf("semantics note %v", n)
	}
	golden(t, "served_described.json", []byte(mustJSON(t, out)))
	withCov := must(DescribedData(j(t, `{"facts":[1],"provenance":{"measuredAt":"m","source":"s"},"coverage":{"checked":["db-a"],"cannotCover":[{"what":"edge","why":"no agent"}]},"clarify":{"question":"which host?","candidates":["h1","h2"]},"render":{"default":"table","filterNote":"replicas excluded"}}`)))
	out, _ = Served(withCov)
	golden(t, "served_described_coverage.json", []byte(mustJSON(t, out)))
}

func TestServedMapOrderAndCycles(t *testing.T) {
	m := map[string]any{"zz": 1, "note": AbsenceNote, "checked": []any{map[string]any{"what": "a", "short": "a"}}, "af_absent": true, "looked_for": "x"}
	out, ch := Served(m)
	if !ch {
		t.Fatal("unchanged")
	}
	if k := strings.Join(out.(Object).Keys(), ","); k != "af_absent,looked_for,checked,note,zz" {
		t.Errorf("keys %s", k)
	}
	if _, has := m["checked"].([]any)[0].(map[string]any)["short"]; !has {
		t.Error("input mutated")
	}
	// A ledger whose result is itself.
	cyc := map[string]any{"af_coverage": map[string]any{"checked": []any{"a"}}}
	cyc["result"] = cyc
	if out, ch := Served(cyc); ch || !same(out, cyc) {
		t.Error("cycle changed")
	}
	if _, ok := ReadCoverageResult(cyc, "t"); !ok {
		t.Error("cyclic ledger not read")
	}
}

func TestWithoutServed(t *testing.T) {
	inputs := []any{
		ledger36(t, seedP),
		must(AbsentData(j(t, `{"what":"x","checked":["y"],"period":{"queried":`+qJSON+`,"held":"unknown"}}`))),
		must(WrapData(must(AbsentData(j(t, `{"what":"x","checked":["y"],"period":`+seedP+`}`))), j(t, `{"checked":["z"],"period":{"queried":`+qJSON+`,"held":"unknown"}}`))),
	}
	for i, in := range inputs {
		served, _ := Served(in)
		back, ch := WithoutServed(served)
		if !ch {
			t.Errorf("%d: nothing undone", i)
		}
		again, _ := Served(back)
		if d := cmp.Diff(mustJSON(t, served), mustJSON(t, again)); d != "" {
			t.Errorf("%d: Served(WithoutServed(Served(x))) differs:\n%s", i, d)
		}
	}
	// Without record-only keys and without the held-only swap, the inverse is exact.
	in := inputs[1]
	served, _ := Served(in)
	back, _ := WithoutServed(served)
	if mustJSON(t, back) != mustJSON(t, in) {
		t.Errorf("inverse not exact:\n%s\n%s", mustJSON(t, back), mustJSON(t, in))
	}
}

func TestReadCoverageResultVectors(t *testing.T) {
	// v41
	semFacts := `"af_semantics":true,"facts":[{"entity":"host-103"}],"provenance":{"measured_at":"m","source":"s"},"note":"n"`
	if _, ok := ReadCoverageResult(j(t, `{`+semFacts+`,"period":{"queried":`+qJSON+`,"held":"all of it"}}`), "t"); ok {
		t.Error("bad held recognized")
	}
	if _, p := ReadSemantics(j(t, `{`+semFacts+`,"period":{"queried":`+qJSON+`,"held":"all of it"}}`)); p == nil || p.Field != "period.held" {
		t.Errorf("problem %+v", p)
	}
	if _, p := ReadSemantics(j(t, `{`+semFacts+`,"period":null}`)); p == nil || p.Field != "period" {
		t.Errorf("problem %+v", p)
	}
	r, ok := ReadCoverageResult(j(t, `{`+semFacts+`,"period":{"queried":`+qJSON+`,"held":"unknown","read_at":"2026-09-26T12:00:03+02:00"}}`), "t")
	if !ok || r.Declared[0].Period == nil || r.Declared[0].Period.ReadAt != "2026-09-26T12:00:03+02:00" {
		t.Errorf("valid semantics %+v %v", r, ok)
	}
	// v42
	p1 := seedP
	p2 := `{"queried":` + qJSON + `,"held":"unknown"}`
	nested := must(WrapData(must(AbsentData(j(t, `{"what":"x","checked":["y"],"period":`+p1+`}`))), j(t, `{"checked":["z"],"period":`+p2+`}`)))
	r, ok = ReadCoverageResult(nested, "t")
	if !ok || r.Status != StatusAbsent || len(r.Declared) != 2 || r.Declared[0].Kind != KindLedger || r.Declared[1].Kind != KindAbsence {
		t.Fatalf("nested %+v", r)
	}
	if !r.Declared[0].Period.Held.Unknown || r.Declared[1].Period.Held.Unknown {
		t.Error("periods swapped")
	}
	if v, _ := r.Verdict(); v != VerdictNotHeld {
		t.Errorf("least held %v", v)
	}
	r, ok = ReadCoverageResult(described40(t), "t")
	want := []Facts{{Kind: KindLedger, Checked: []Item{}, NotChecked: []Item{}, CannotCover: []Item{}, Period: &Period{Queried: pQ, Held: Held{Span: pH}}}}
	if !ok || !reflect.DeepEqual(r.Declared, want) {
		t.Errorf("described %+v", r)
	}
	if _, ok := ReadCoverageResult(must(Described(DescribedDecl{Facts: []any{1}, Provenance: &Provenance{MeasuredAt: "m", Source: "s"}})), "t"); ok {
		t.Error("semantics without coverage or period recognized")
	}
	// A served value reads back as what was declared.
	served, _ := Served(nested)
	r2, _ := ReadCoverageResult(served, "t")
	if len(r2.Problems) != 0 || r2.Declared[1].Period == nil {
		t.Errorf("served read: %+v", r2)
	}
}

func TestWarnOnce(t *testing.T) { // v43
	var buf bytes.Buffer
	w := NewWarner(slog.New(slog.NewTextHandler(&buf, nil)))
	v := j(t, `{"af_absent":true,"looked_for":"x","checked":["y"],"period":{"queried":{"from":"yesterday","to":"2026-09-26T10:00:00Z"},"held":"unknown"}}`)
	if _, ok := ReadCoverageResult(v, "backup_runs"); !ok {
		t.Fatal("not recognized")
	}
	for range 2 {
		r, ok := ReadCoverageResult(v, "backup_runs", WithWarner(w))
		if !ok || r.Status != StatusAbsent || r.Declared[0].Period != nil || len(r.Problems) != 1 || r.Problems[0].Field != "period.queried.from" {
			t.Fatalf("%+v", r)
		}
	}
	if n := strings.Count(buf.String(), "level=WARN"); n != 1 {
		t.Fatalf("warnings = %d: %s", n, buf.String())
	}
	// Each Warner keeps its own ledger: nothing is remembered process-wide.
	var other bytes.Buffer
	ReadCoverageResult(v, "backup_runs", WithWarner(NewWarner(slog.New(slog.NewTextHandler(&other, nil)))))
	if n := strings.Count(other.String(), "level=WARN"); n != 1 {
		t.Errorf("a second Warner warned %d times", n)
	}
	if NewWarner(nil) != nil {
		t.Error("a nil logger makes a Warner")
	}
	if !strings.Contains(buf.String(), "tool=backup_runs") || !strings.Contains(buf.String(), "declaration=period") || strings.Contains(buf.String(), "yesterday") {
		t.Errorf("warning: %s", buf.String())
	}
	if out, ch := Served(v); ch || !same(out, v) {
		t.Error("served changed a malformed period")
	}
}

func TestNotEnvelopes(t *testing.T) { // v44
	env := `{"af_absent":true,"outcome":"nothing_found","looked_for":"x","checked":[{"what":"y"}],"note":"n"}`
	values := []any{
		j(t, `{"af_absent":"true","looked_for":"x","checked":["y"]}`),
		j(t, `{"af_absent":true,"checked":[]}`),
		env,
		[]byte(env),
		json.RawMessage(env),
		j(t, `{"data":`+env+`}`),
		j(t, `{"af_coverage":{"checked":["a"]}}`),
	}
	for i, v := range values {
		if _, ok := ReadCoverageResult(v, "t"); ok {
			t.Errorf("%d recognized", i)
		}
		out, ch := Served(v)
		if ch || mustJSON(t, out) != mustJSON(t, v) {
			t.Errorf("%d changed by Served", i)
		}
	}
	out, _ := Served(j(t, `{"af_absent":true,"checked":[{"what":"a","short":null,"kind":"scope"}]}`))
	c, _ := out.(Object).Get("checked")
	if got := mustJSON(t, c); got != `[{"what":"a","short":null}]` {
		t.Errorf("item served as %s", got)
	}
}

func TestMalformedSemanticsAndRows(t *testing.T) {
	f, ok := malformedSemantics(j(t, `{"af_semantics":true,"facts":[1],"provenance":{"measured_at":"m","source":"s"},"period":null,"note":"n"}`))
	if !ok || f.Code != "malformed-semantics" || f.Field != "period" {
		t.Errorf("%+v %v", f, ok)
	}
	if _, ok := malformedSemantics(described40(t)); ok {
		t.Error("well formed reported")
	}
	if !sameItem(Item{What: "a"}, Item{What: "a", Short: "x"}) || sameItem(Item{What: "a"}, Item{What: "a", Why: "b"}) {
		t.Error("SameItem")
	}
}

func TestServedLedgerUnknownAndData(t *testing.T) {
	c := must(Wrap(map[string]any{"rows": []any{}}, LedgerDecl{
		Checked:    []Item{{What: "db-a", Short: "a"}},
		NotChecked: []Item{{What: "db-b", Kind: KindScope}},
		Period:     &Period{Queried: pQ, Held: HeldUnknownSpan(), ReadAt: "2026-09-26T10:00:03Z"},
	}))
	out, ch := Served(c)
	if !ch {
		t.Fatal("unchanged")
	}
	golden(t, "served_ledger_unknown.json", []byte(mustJSON(t, out)))
	// A ledger with nothing to strip and a covered period is served as the same value.
	plain := must(Wrap(1, LedgerDecl{Checked: []Item{{What: "a"}}, Period: &Period{Queried: pQ, Held: Held{Span: pQ}}}))
	if out, ch := Served(plain); ch || out != any(plain) {
		t.Error("covered ledger changed")
	}
}

func TestAtBoundary(t *testing.T) {
	cases := []struct {
		in       any
		want     Recognized
		record   bool
		problems int
		changed  bool
	}{
		{map[string]any{"rows": 1}, RecognizedNone, false, 0, false},
		{must(Described(DescribedDecl{Facts: []any{1}, Provenance: &Provenance{MeasuredAt: "m", Source: "s"}})), RecognizedSemantics, false, 0, true},
		{j(t, `{"af_semantics":true,"facts":[1],"provenance":{"measured_at":"m","source":"s"},"period":null,"note":"n"}`), RecognizedNone, false, 1, false},
		{ledger36(t, seedP), RecognizedLedger, true, 0, true},
		{j(t, `{"af_absent":true,"checked":["y"],"provenance":"x"}`), RecognizedAbsence, true, 1, false},
	}
	for i, c := range cases {
		b := AtBoundary(c.in, "t")
		if b.Recognized != c.want || b.Record != c.record || len(b.Problems) != c.problems || b.Changed != c.changed {
			t.Errorf("%d: %+v", i, b)
		}
	}
}

func TestOddToolNameWarnsOnce(t *testing.T) {
	var buf bytes.Buffer
	w := NewWarner(slog.New(slog.NewTextHandler(&buf, nil)))
	for range 2 {
		a, err := Absent(AbsenceDecl{What: "x", Checked: []Item{{What: "y"}}, TryInsteadTool: &ToolSuggestion{Tool: "fabric inventory!"}})
		if err != nil || a.TryInsteadTool.Tool != "fabric inventory!" {
			t.Fatalf("%v %+v", err, a)
		}
		if r, ok := ReadCoverageResult(a, "lookup", WithWarner(w)); !ok || r.Declared[0].TryInsteadTool.Tool != "fabric inventory!" {
			t.Fatalf("%v %+v", ok, r)
		}
	}
	if n := strings.Count(buf.String(), "level=WARN"); n != 1 || strings.Contains(buf.String(), "fabric inventory!") {
		t.Errorf("warnings: %s", buf.String())
	}
}

func TestWarnLedgerCap(t *testing.T) {
	warned := NewWarner(slog.New(slog.NewTextHandler(io.Discard, nil)))
	for i := range warnLedgerCap {
		if !warned.first(strings.Repeat("t", i+1), "period") {
			t.Fatalf("key %d refused below the cap", i)
		}
	}
	if warned.first("one more", "period") {
		t.Error("warned past the cap")
	}
	if warned.first(strings.Repeat("t", 1), "period") {
		t.Error("warned twice")
	}
}

// minted stands for coverage.Envelope: a named type over Object, as a door returns it.
type minted Object

// A minted envelope is recognized through its named type, also inside a foreign ledger's result.
func TestNamedObjectEnvelope(t *testing.T) {
	a := must(AbsentData(j(t, `{"what":"x","checked":[{"what":"y","short":"y"}],"period":`+seedP+`}`)))
	env := minted(a.Wire())
	if _, ok := ReadAbsence(env); !ok {
		t.Fatal("a named minted absence was not recognized")
	}
	if _, ok := asArray(env); ok {
		t.Error("a named object read as an array of members")
	}
	outer := map[string]any{"af_coverage": map[string]any{"checked": []any{"z"}}, "result": env}
	r, ok := ReadCoverageResult(outer, "t")
	if !ok || r.Status != StatusAbsent || len(r.Declared) != 2 {
		t.Fatalf("nested: %v %+v", ok, r)
	}
	out, changed := Served(outer)
	if !changed || !strings.Contains(mustJSON(t, out), `"verdict":"not-held"`) || strings.Contains(mustJSON(t, out), `"short"`) {
		t.Errorf("served %s", mustJSON(t, out))
	}
}
