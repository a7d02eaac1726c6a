package engine

import (
	"encoding/json"
	"strings"
	"testing"

	cw "github.com/agentfootprint/agentfootprint-go/coverage/wire"
)

func TestAbsentExact(t *testing.T) { // v30
	a, err := Absent(AbsenceDecl{What: "x", Checked: []Item{{What: "y"}}, TryInstead: "z"})
	if err != nil {
		t.Fatal(err)
	}
	note, _ := Marshal(AbsenceNote)
	want := `{"af_absent":true,"outcome":"nothing_found","looked_for":"x","checked":[{"what":"y"}],"retry_returns_the_same":true,"try_instead":"z","note":` + string(note) + `}`
	if got := mustJSON(t, a); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func fullAbsence(t *testing.T) *Absence { // v31
	t.Helper()
	a, err := AbsentData(j(t, `{
		"what": "zoning entries for port 7",
		"checked": ["  fabric-a: live zone db ", {"what":"window: the last 24h","why":"log retention","short":"the last 24h"}],
		"notChecked": [{"what":"archived zones","why":"older than 24h","kind":"scope"}],
		"cannotCover": [{"what":"fabric b ports","why":"one fabric per collector"}],
		"tryInstead": "ask for fabric b through fabric_inventory",
		"tryInsteadTool": {"tool":"fabric_inventory","why":"lists both"},
		"provenance": {"measuredAt":"2026-09-26T02:00:00Z","source":"nightly export"},
		"period": {"queried":`+qJSON+`,"held":`+hJSON+`}
	}`))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestAbsentFull(t *testing.T) {
	a := fullAbsence(t)
	w := a.Wire()
	if got, want := strings.Join(w.Keys(), ","), strings.Join(AbsenceKeys()[:8], ",")+",retry_returns_the_same,try_instead,try_instead_tool,note"; got != want {
		t.Errorf("keys %s\nwant %s", got, want)
	}
	checked, _ := w.Get("checked")
	items := checked.([]any)
	if mustJSON(t, items[0]) != `{"what":"fabric-a: live zone db"}` {
		t.Errorf("checked[0] = %s", mustJSON(t, items[0]))
	}
	if k := strings.Join(items[1].(Object).Keys(), ","); k != "what,why,short" {
		t.Errorf("checked[1] keys %s", k)
	}
	nc, _ := w.Get("not_checked")
	if k := strings.Join(nc.([]any)[0].(Object).Keys(), ","); k != "what,why,kind" {
		t.Errorf("not_checked[0] keys %s", k)
	}
	pv, _ := w.Get("provenance")
	if mustJSON(t, pv) != `{"measured_at":"2026-09-26T02:00:00Z","source":"nightly export"}` {
		t.Errorf("provenance %s", mustJSON(t, pv))
	}
	golden(t, "absent_full.json", []byte(mustJSON(t, a)))
}

func TestAbsentRefusals(t *testing.T) { // v32, v33, v34 and the remaining rules
	base := `"what":"x","checked":["y"]`
	cases := []struct {
		name, in, field, contains string
	}{
		{"not_checked slip", `{` + base + `,"not_checked":["a"]}`, "not_checked", "`notChecked`"},
		{"try_instead_tool slip", `{` + base + `,"try_instead_tool":{"tool":"t"}}`, "try_instead_tool", "`tryInsteadTool`"},
		{"inProgress no guess", `{` + base + `,"inProgress":["a"]}`, "inProgress", ""},
		{"cannotCover string", `{` + base + `,"cannotCover":["b"]}`, "cannotCover[0]", ""},
		{"tryInsteadTool list", `{` + base + `,"tryInsteadTool":[]}`, "tryInsteadTool", ""},
		{"tryInstead object", `{` + base + `,"tryInstead":{"tool":"t"}}`, "tryInstead", "tryInsteadTool"},
		{"what blank", `{"what":" ","checked":["y"]}`, "what", ""},
		{"checked empty", `{"what":"x","checked":[]}`, "checked", `"x"`},
		{"null", `null`, "", ""},
		{"provenance no source", `{` + base + `,"provenance":{"measuredAt":"now"}}`, "provenance.source", ""},
		{"provenance slip", `{` + base + `,"provenance":{"measured_at":"now","source":"s"}}`, "provenance.measured_at", "`measuredAt`"},
		{"provenance age", `{` + base + `,"provenance":{"measuredAt":"now","source":"s","ageSeconds":-1}}`, "provenance.ageSeconds", ""},
		{"provenance string", `{` + base + `,"provenance":"yesterday"}`, "provenance", ""},
		{"short too long", `{"what":"` + strings.Repeat("😀", 50) + `","checked":[{"what":"` + strings.Repeat("😀", 50) + `","short":"` + strings.Repeat("😀", 41) + `"}]}`, "checked[0].short", "82"},
		{"short tab", `{"what":"x","checked":[{"what":"a long what","short":"a\tb"}]}`, "checked[0].short", "U+0009"},
		{"short newline first", `{"what":"x","checked":[{"what":"` + strings.Repeat("b", 120) + `","short":"` + strings.Repeat("a", 99) + `\n"}]}`, "checked[0].short", "U+000A"},
		{"short longer than what", `{"what":"x","checked":[{"what":"a","short":"ab"}]}`, "checked[0].short", ""},
		{"kind on checked", `{"what":"x","checked":[{"what":"a","kind":"scope"}]}`, "checked[0].kind", ""},
		{"kind other", `{` + base + `,"notChecked":[{"what":"a","kind":"other"}]}`, "notChecked[0].kind", ""},
		{"list not array", `{"what":"x","checked":"y"}`, "checked", ""},
		{"blank entry", `{"what":"x","checked":["  "]}`, "checked[0]", ""},
		{"number entry", `{"what":"x","checked":[5]}`, "checked[0]", ""},
		{"why null", `{"what":"x","checked":[{"what":"a","why":null}]}`, "checked[0].why", `"a"`},
		{"cannotCover no why", `{` + base + `,"cannotCover":[{"what":"b"}]}`, "cannotCover[0].why", ""},
		{"short null is omitted, kind bad", `{` + base + `,"notChecked":[{"what":"a","short":null,"kind":5}]}`, "notChecked[0].kind", ""},
		{"tryInsteadTool blank tool", `{` + base + `,"tryInsteadTool":{"tool":" "}}`, "tryInsteadTool.tool", ""},
		{"tryInsteadTool bad why", `{` + base + `,"tryInsteadTool":{"tool":"t","why":""}}`, "tryInsteadTool.why", ""},
		{"tryInsteadTool unknown", `{` + base + `,"tryInsteadTool":{"tool":"t","name":"u"}}`, "tryInsteadTool.name", ""},
		{"period camel", `{` + base + `,"period":{"queried":{"from":"yesterday","to":"2026-09-26T10:00:00Z"},"held":"unknown"}}`, "period.queried.from", ""},
		{"resolved bad", `{` + base + `,"resolved":[{"argument":"host"}]}`, "resolved[0].id", ""},
		{"paging no next", `{` + base + `,"paging":{}}`, "paging.next", ""},
		{"among count mismatch", `{"what":"x","among":{"argument":"a","source":"s","measuredAt":"m","count":2,"names":["n"]}}`, "among.names", NamesCountMismatch},
		{"among with provenance", `{"what":"x","among":{"argument":"a","source":"s","measuredAt":"m","count":1},"provenance":{"measuredAt":"m","source":"s"}}`, "provenance", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := AbsentData([]byte(c.in))
			r := refusedAt(t, err, c.field)
			if c.contains != "" && !strings.Contains(r.Message, c.contains) {
				t.Errorf("message %q lacks %q", r.Message, c.contains)
			}
		})
	}
	// v34: 40 emoji under a 50-emoji what is accepted.
	if _, err := AbsentData(j(t, `{"what":"x","checked":[{"what":"`+strings.Repeat("😀", 50)+`","short":"`+strings.Repeat("😀", 40)+`"}]}`)); err != nil {
		t.Errorf("40 emoji: %v", err)
	}
	// The typed door: "" omitted, whitespace refused; a Go map's first unknown key is the sorted first.
	_, err := Absent(AbsenceDecl{What: "x", Checked: []Item{{What: "y", Why: " "}}})
	refusedAt(t, err, "checked[0].why")
	_, err = AbsentData(map[string]any{"what": "x", "checked": []any{"y"}, "zeta": 1, "beta": 2})
	refusedAt(t, err, "beta")
	// A non-object tryInstead is no suggestion, silently.
	a, err := AbsentData(j(t, `{`+base+`,"tryInstead":["z"]}`))
	if err != nil || a.TryInstead != "" {
		t.Errorf("array tryInstead: %v %q", err, a.TryInstead)
	}
}

func TestAmongComposition(t *testing.T) {
	a, err := AbsentData(j(t, `{"what":"array-9","among":{"argument":"array_id","source":"the inventory export","measuredAt":"2026-09-26T02:00:00Z","count":2,"names":["a","b"],"partial":true}}`))
	if err != nil {
		t.Fatal(err)
	}
	out := mustJSON(t, a)
	if strings.Contains(out, `"a"`) || strings.Contains(out, "array-9\",\"checked") && strings.Contains(out, "names in array-9") {
		t.Errorf("names or the looked-for value leaked: %s", out)
	}
	golden(t, "absent_among.json", []byte(out))
	if _, ok := a.AuthoritativeWhy(); ok {
		t.Error("not authoritative")
	}
}

func TestWrap(t *testing.T) {
	c, err := Wrap(1, LedgerDecl{Checked: []Item{{What: "y"}}}) // v35
	if err != nil {
		t.Fatal(err)
	}
	note, _ := Marshal(CoverageNote)
	if got, want := mustJSON(t, c), `{"af_coverage":{"checked":[{"what":"y"}],"note":`+string(note)+`},"result":1}`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	c, err = Wrap("ok", LedgerDecl{Period: &Period{Queried: pQ, Held: HeldUnknownSpan()}})
	if err != nil {
		t.Fatal(err)
	}
	ac, _ := c.Wire().Get(cw.CoverageMarker)
	if k := strings.Join(ac.(Object).Keys(), ","); k != "period,note" {
		t.Errorf("keys %s", k)
	}
	_, err = Wrap("ok", LedgerDecl{})
	refusedAt(t, err, "")
	_, err = WrapData("ok", j(t, `{"checked":["a"],"provenance":{"measuredAt":"m","source":"s"}}`))
	r := refusedAt(t, err, "provenance")
	if !strings.Contains(r.Message, "`checked`, `notChecked`, `cannotCover`, `period`, `inProgress`") {
		t.Errorf("fields not listed: %s", r.Message)
	}
	golden(t, "wrap_null_result.json", []byte(mustJSON(t, must(Wrap(nil, LedgerDecl{NotChecked: []Item{{What: "n"}}})))))
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func ledger36(t *testing.T, p string) *Covered {
	t.Helper()
	c, err := WrapData(map[string]any{"rows": 3}, j(t, `{"checked":["every session"],"cannotCover":[{"what":"host paths","why":"no collector"}],
		"inProgress":["  vm-42 backup  ",{"what":"sessions syncing","count":96,"short":"syncing","why":" since 08:10 "}],"period":`+p+`}`))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestWrapInProgress(t *testing.T) { // v36
	c := ledger36(t, `{"queried":`+qJSON+`,"held":`+hJSON+`}`)
	ac, _ := c.Wire().Get(cw.CoverageMarker)
	if k := strings.Join(ac.(Object).Keys(), ","); k != "checked,cannot_cover,in_progress,period,note" {
		t.Errorf("keys %s", k)
	}
	ip, _ := ac.(Object).Get(InProgressKey)
	if got := mustJSON(t, ip); got != `[{"what":"vm-42 backup"},{"what":"sessions syncing","why":"since 08:10","short":"syncing","count":96}]` {
		t.Errorf("in_progress %s", got)
	}
	golden(t, "wrap_in_progress.json", []byte(mustJSON(t, c)))
}

func TestWrapRefusals(t *testing.T) { // v37
	cases := []struct{ in, field string }{
		{`{"checked":["a"],"inProgress":"vm-42"}`, "inProgress"},
		{`{"checked":["a"],"inProgress":["  "]}`, "inProgress[0]"},
		{`{"checked":["a"],"inProgress":[{"why":"x"}]}`, "inProgress[0].what"},
		{`{"checked":["a"],"inProgress":[{"what":"a","kind":"scope"}]}`, "inProgress[0].kind"},
		{`{"checked":["a"],"inProgress":[{"what":"a","wy":"b"}]}`, "inProgress[0].wy"},
		{`{"checked":["a"],"inProgress":[{"what":"a","count":0}]}`, "inProgress[0].count"},
		{`{"checked":["a"],"inProgress":[{"what":"a","count":1.5}]}`, "inProgress[0].count"},
		{`{"checked":["a"],"inProgress":[{"what":"a","count":"3"}]}`, "inProgress[0].count"},
		{`{"inProgress":[]}`, "inProgress"},
		{`{"checked":["a"],"inProgress":[[]]}`, "inProgress[0]"},
		{`{"checked":["a"],"inProgress":[{"what":"a","count":9007199254740992}]}`, "inProgress[0].count"},
		{`{"in_progress":[]}`, "in_progress"},
		{`[]`, ""},
		{`{"checked":["a"],"period":{"queried":` + qJSON + `,"held":"unknown","read_at":"2026-09-26T10:00:03Z"}}`, "period.read_at"},
	}
	for _, c := range cases {
		_, err := WrapData(nil, []byte(c.in))
		refusedAt(t, err, c.field)
	}
	_, err := WrapData(nil, []byte(`{"in_progress":[]}`))
	if r := refusedAt(t, err, "in_progress"); !strings.Contains(r.Message, "`inProgress`") {
		t.Errorf("no suggestion: %s", r.Message)
	}
}

func described40(t *testing.T) *Semantics {
	t.Helper()
	s, err := Described(DescribedDecl{
		Facts:      []any{map[string]any{"entity": "host-103", "ok": false}},
		Provenance: &Provenance{MeasuredAt: "2026-09-26T02:00:00Z", Source: "nightly export"},
		Period:     &Period{Queried: pQ, Held: Held{Span: pH}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestDescribed(t *testing.T) {
	s := described40(t)
	if k := strings.Join(s.Wire().Keys(), ","); k != "af_semantics,facts,provenance,period,note" {
		t.Errorf("keys %s", k)
	}
	golden(t, "described.json", []byte(mustJSON(t, s)))
	withCov, err := DescribedData(j(t, `{"series":[{"t":"2026-09-26T09:00:00Z","entity":"db-a","metric":"errors","value":2}],"grain":{"interval":"1h","aggregation":"sum","isCounter":false},"provenance":{"source":"metrics store","measuredAt":"2026-09-26T10:00:00Z"},"coverage":{"checked":["db-a"],"notChecked":[{"what":"db-b","why":"offline"}],"cannotCover":[{"what":"edge caches","why":"no agent","kind":"scope"}]},"clarify":null,"render":{"default":"chart","chartHint":"line per entity"}}`))
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "described_coverage.json", []byte(mustJSON(t, withCov)))
	cases := []struct{ in, field string }{
		{`{"facts":[{"a":1}],"notCovered":["x"]}`, "notCovered"},
		{`{"facts":[{"a":1}],"not_covered":["x"]}`, "not_covered"},
		{`{"facts":[]}`, "facts"},
		{`{"grain":"hour"}`, "grain"},
		{`{}`, "af_semantics"},
		{`{"clarify":null}`, "af_semantics"},
		{`{"provenance":{"measuredAt":"m","source":"s"}}`, "af_semantics"},
		{`{"facts":[{"entity":"a"}]}`, "provenance"},
		{`{"facts":[{"entity":"a"}],"provenance":null}`, "provenance"},
		{`{"series":[1],"provenance":{"measuredAt":"m","source":"s"}}`, "grain"},
		{`{"series":[1],"grain":{"aggregation":"sum"},"provenance":{"measuredAt":"m","source":"s"}}`, "grain.isCounter"},
		{`{"series":[1],"grain":{"aggregation":"Daily Totals"},"provenance":{"measuredAt":"m","source":"s"}}`, "grain.isCounter"},
		{`{"series":[1],"grain":{"is_counter":true},"provenance":{"measuredAt":"m","source":"s"}}`, "grain.is_counter"},
		{`{"series":[1],"grain":{"isCounter":"no"},"provenance":{"measuredAt":"m","source":"s"}}`, "grain.isCounter"},
		{`{"series":[1],"grain":{},"provenance":{"measuredAt":"m","source":"s"}}`, "grain"},
		{`{"edges":[1],"render":{"filterNote":"x"}}`, "render.default"},
		{`{"edges":[1],"render":{"default":"table","filter_note":"x"}}`, "render.filter_note"},
		{`{"edges":[1],"render":{"default":"table","columns":[]}}`, "render.columns"},
		{`{"clarify":{"question":" "}}`, "clarify.question"},
		{`{"clarify":{"question":"which?","candidates":"v1"}}`, "clarify.candidates"},
		{`{"clarify":{"question":"which?","options":[]}}`, "clarify.options"},
		{`{"facts":[1],"provenance":{"measuredAt":"m","source":"s"},"coverage":{}}`, "coverage"},
		{`{"facts":[1],"provenance":{"measuredAt":"m","source":"s"},"coverage":{"inProgress":["a"]}}`, "coverage.inProgress"},
		{`{"facts":[1],"provenance":{"measuredAt":"m","source":"s"},"coverage":"all"}`, "coverage"},
		{`{"facts":[1],"provenance":{"source":"s"}}`, "provenance.measuredAt"},
		{`{"facts":[1],"provenance":{"measuredAt":"m","source":"s"},"period":{"queried":` + qJSON + `}}`, "period.held"},
		{`{"facts":[1],"provenance":{"measuredAt":"m","source":"s"},"extra":1}`, "extra"},
	}
	for _, c := range cases {
		_, err := DescribedData([]byte(c.in))
		refusedAt(t, err, c.field)
	}
	// period: null is omitted at this door.
	if _, err := DescribedData(j(t, `{"facts":[1],"provenance":{"measuredAt":"m","source":"s"},"period":null}`)); err != nil {
		t.Errorf("null period: %v", err)
	}
}

func TestCheckedDeclared(t *testing.T) {
	a, err := Absent(AbsenceDecl{What: "host-103", CheckedDeclared: true, NotChecked: []Item{{What: "archived jobs"}}})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "absent_declared.json", []byte(mustJSON(t, a)))
	c, err := WrapData([]any{1}, j(t, `{"checked":"declared","inProgress":["vm-42 backup"]}`))
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "wrap_declared.json", []byte(mustJSON(t, c)))
	for _, v := range []any{a, c, j(t, mustJSON(t, a)), j(t, mustJSON(t, c))} {
		if _, ok := ReadCoverageResult(v, "t"); ok {
			t.Errorf("a declared envelope was read by the one channel: %s", mustJSON(t, v))
		}
		if out, ch := Served(v); ch || mustJSON(t, out) != mustJSON(t, v) {
			t.Error("a declared envelope was served differently")
		}
	}
	if _, ok := ReadDeclaredAbsence(a); !ok {
		t.Error("ReadDeclaredAbsence")
	}
	if _, ok := ReadDeclaredLedger(c); !ok {
		t.Error("ReadDeclaredLedger")
	}
	if _, ok := ReadDeclaredAbsence(c); ok {
		t.Error("a ledger read as a declared absence")
	}
	// Any other string for checked is refused as a list fault.
	_, err = AbsentData(j(t, `{"what":"x","checked":"all"}`))
	refusedAt(t, err, "checked")
}

func TestCheckedDeclaredAndListed(t *testing.T) {
	_, err := Absent(AbsenceDecl{What: "x", CheckedDeclared: true, Checked: []Item{{What: "y"}}})
	refusedAt(t, err, "checked")
	_, err = Wrap(1, LedgerDecl{CheckedDeclared: true, Checked: []Item{{What: "y"}}})
	refusedAt(t, err, "checked")
}

func TestDataDoorsTakeRawMessage(t *testing.T) {
	if _, err := AbsentData(json.RawMessage(`{"what":"x","checked":["y"]}`)); err != nil {
		t.Error(err)
	}
	if _, err := MintPeriod(json.RawMessage(`{"queried":` + qJSON + `,"held":"unknown"}`)); err != nil {
		t.Error(err)
	}
	_, err := MintPeriod([]byte(`{"queried":`))
	refusedAt(t, err, "period")
}
