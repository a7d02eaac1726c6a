package engine

import (
	"strings"
	"testing"
)

func TestPeriodProblemVectors(t *testing.T) {
	cases := []struct {
		name  string
		in    string
		sp    keySpelling
		field string // "" = well formed
	}{
		{"v1 span", `{"queried":` + qJSON + `,"held":` + hJSON + `}`, inCamel, ""},
		{"v1 unknown camel", `{"queried":` + qJSON + `,"held":"unknown","readAt":"2026-09-26T10:00:03Z"}`, inCamel, ""},
		{"v1 unknown wire", `{"queried":` + qJSON + `,"held":"unknown","read_at":"2026-09-26T10:00:03Z"}`, onWire, ""},
		{"v2 string", `"last hour"`, inCamel, "period"},
		{"v2 array", `[]`, inCamel, "period"},
		{"v3 read_at at camel", `{"queried":` + qJSON + `,"held":` + hJSON + `,"read_at":"2026-09-26T10:00:03Z"}`, inCamel, "period.read_at"},
		{"v3 readAt at wire", `{"queried":` + qJSON + `,"held":` + hJSON + `,"readAt":"2026-09-26T10:00:03Z"}`, onWire, "period.readAt"},
		{"v4 window", `{"queried":` + qJSON + `,"held":` + hJSON + `,"window":"2h"}`, inCamel, "period.window"},
		{"v5 no queried", `{"held":` + hJSON + `}`, inCamel, "period.queried"},
		{"v5 no held", `{"queried":` + qJSON + `}`, inCamel, "period.held"},
		{"v5 null held", `{"queried":` + qJSON + `,"held":null}`, inCamel, "period.held"},
		{"v6 all of it", `{"queried":` + qJSON + `,"held":"all of it"}`, inCamel, "period.held"},
		{"v6 UNKNOWN", `{"queried":` + qJSON + `,"held":"UNKNOWN"}`, inCamel, "period.held"},
		{"v7 backwards", `{"queried":{"from":"2026-09-26T10:00:00Z","to":"2026-09-26T09:00:00Z"},"held":"unknown"}`, inCamel, "period.queried"},
		{"v7 years", `{"queried":{"from":"1999-01-01T00:00:00Z","to":"0099-01-01T00:00:00Z"},"held":"unknown"}`, inCamel, "period.queried"},
		{"v8 tz", `{"queried":{"from":"2026-09-26T09:00:00Z","to":"2026-09-26T10:00:00Z","tz":"UTC"},"held":"unknown"}`, inCamel, "period.queried.tz"},
		{"verdict word is unknown key", `{"queried":` + qJSON + `,"held":` + hJSON + `,"verdict":"not-held"}`, onWire, "period.verdict"},
		{"held span bad to", `{"queried":` + qJSON + `,"held":{"from":"2026-08-27T02:00:00Z","to":"soon"}}`, inCamel, "period.held.to"},
		{"held number", `{"queried":` + qJSON + `,"held":5}`, inCamel, "period.held"},
		{"readAt null ok", `{"queried":` + qJSON + `,"held":"unknown","readAt":null}`, inCamel, ""},
		{"readAt now", `{"queried":` + qJSON + `,"held":"unknown","readAt":"now"}`, inCamel, "period.readAt"},
		{"point span", `{"queried":{"from":"2026-09-26T09:00:00Z","to":"2026-09-26T09:00:00Z"},"held":"unknown"}`, inCamel, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := periodProblem(j(t, c.in), c.sp)
			switch {
			case c.field == "" && p != nil:
				t.Fatalf("want nil, got %+v", p)
			case c.field != "" && p == nil:
				t.Fatalf("want a problem at %s, got nil", c.field)
			case c.field != "" && p.Field != c.field:
				t.Fatalf("field = %q, want %q (%s)", p.Field, c.field, p.Message)
			}
		})
	}
	// v3: the slip names the key meant.
	if p := periodProblem(j(t, `{"queried":`+qJSON+`,"held":`+hJSON+`,"read_at":"2026-09-26T10:00:03Z"}`), inCamel); !strings.Contains(p.Message, "`readAt`") {
		t.Errorf("camel slip message %q does not name readAt", p.Message)
	}
	if p := periodProblem(j(t, `{"queried":`+qJSON+`,"held":`+hJSON+`,"readAt":"2026-09-26T10:00:03Z"}`), onWire); !strings.Contains(p.Message, "`read_at`") {
		t.Errorf("wire slip message %q does not name read_at", p.Message)
	}
	// v4: no guess for a different word.
	if p := periodProblem(j(t, `{"queried":`+qJSON+`,"held":`+hJSON+`,"window":"2h"}`), inCamel); strings.Contains(p.Message, "spelling") {
		t.Errorf("window drew a suggestion: %q", p.Message)
	}
}

func TestInstantVectors(t *testing.T) {
	bad := []any{"2026-09-26T08:00:00", "2026-09-26", "2026-09-26 08:00:00Z", "yesterday", "1727337600", 1727337600,
		"2026-02-30T00:00:00Z", "2026-09-26T24:00:00Z", "2026-09-26T08:60:00Z", "2026-09-26T08:00:00+24:00",
		"2026-9-26T08:00:00Z", "2026-09-26T08:00:00.1234567890Z", "2026-09-26T08:00.5Z", "2026-09-26T08:00:00+123:00",
		"2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2026-09-26T08:00:61Z", "2026-09-26T08:00:00+23:60", nil, true}
	for _, b := range bad { // v9
		in := Object{{Key: "queried", Value: Object{{Key: "from", Value: b}, {Key: "to", Value: "2026-09-26T10:00:00Z"}}}, {Key: "held", Value: "unknown"}}
		p := periodProblem(in, inCamel)
		if p == nil || p.Field != "period.queried.from" {
			t.Errorf("%v: got %+v, want period.queried.from", b, p)
		}
	}
	good := []string{"2026-09-26T08:00Z", "2026-09-26T08:00:00.123456789Z", "2026-09-26T08:00:00-00:00", "2026-09-26t08:00:00z",
		"2016-12-31T23:59:60Z", "2026-09-26T08:00:00+23:59", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z",
		"2024-02-29T00:00:00Z", "2000-02-29T00:00:00Z", "0000-01-01T00:00:00Z"}
	for _, g := range good { // v10
		in := Object{{Key: "queried", Value: Object{{Key: "from", Value: g}, {Key: "to", Value: g}}}, {Key: "held", Value: "unknown"}}
		if p := periodProblem(in, inCamel); p != nil {
			t.Errorf("%s: %+v", g, p)
		}
	}
}

func TestInstantMessageClipped(t *testing.T) { // v11
	v := "SECRET-" + strings.Repeat("x", 5000)
	p := periodProblem(Object{{Key: "queried", Value: Object{{Key: "from", Value: v}, {Key: "to", Value: "2026-09-26T10:00:00Z"}}}, {Key: "held", Value: "unknown"}}, inCamel)
	if p == nil || p.Field != "period.queried.from" {
		t.Fatalf("got %+v", p)
	}
	if len(p.Message) >= 400 || !strings.Contains(p.Message, "SECRET-") || strings.Contains(p.Message, strings.Repeat("x", 100)) {
		t.Errorf("message not clipped: %d bytes: %s", len(p.Message), p.Message)
	}
}

func TestMintPeriod(t *testing.T) {
	got, err := MintPeriod(j(t, `{"readAt":"2026-09-26T10:00:03Z","held":`+hJSON+`,"queried":`+qJSON+`}`)) // v12
	if err != nil {
		t.Fatal(err)
	}
	want := `{"queried":{"from":"2026-09-26T09:00:00Z","to":"2026-09-26T10:00:00Z"},"held":{"from":"2026-08-27T02:00:00Z","to":"2026-09-26T02:00:00Z"},"read_at":"2026-09-26T10:00:03Z"}`
	if s := mustJSON(t, got); s != want {
		t.Errorf("got  %s\nwant %s", s, want)
	}
	_, err = MintPeriod(Period{Queried: pQ, Held: Held{Span: pH}, ReadAt: "now"}) // v13
	refusedAt(t, err, "period.readAt")
	if w, err := MintPeriod(nil); w != nil || err != nil {
		t.Errorf("nil: %v %v", w, err)
	}
}

func TestReadPeriod(t *testing.T) { // v14
	r := readPeriod(j(t, `{"queried":`+qJSON+`,"held":`+hJSON+`,"read_at":"2026-09-26T10:00:03+02:00"}`))
	want := Period{Queried: pQ, Held: Held{Span: pH}, ReadAt: "2026-09-26T10:00:03+02:00"}
	if r.Period == nil || *r.Period != want || r.Problem != nil {
		t.Errorf("valid: %+v", r)
	}
	if r := readPeriod(nil); r.Period != nil || r.Problem != nil {
		t.Errorf("nil: %+v", r)
	}
	if r := readPeriod(j(t, `{"queried":`+qJSON+`,"held":"soon"}`)); r.Problem == nil || r.Problem.Field != "period.held" {
		t.Errorf("soon: %+v", r)
	}
	if r := readPeriod(j(t, `{"queried":`+qJSON+`,"held":`+hJSON+`,"verdict":"not-held"}`)); r.Problem == nil || r.Problem.Field != "period.verdict" {
		t.Errorf("verdict: %+v", r)
	}
}

func TestVerdictVectors(t *testing.T) {
	cases := []struct {
		name string
		q    Span
		h    Held
		want Verdict
	}{
		{"v15 wide", pQ, span(at("00:00"), at("12:00")), VerdictCovered},
		{"v15 equal", pQ, Held{Span: pQ}, VerdictCovered},
		{"v16 seed", pQ, Held{Span: pH}, VerdictNotHeld},
		{"v16 after", pQ, span("2026-09-26T10:00:01Z", "2026-09-27T00:00:00Z"), VerdictNotHeld},
		{"v17 a", pQ, span(at("09:30"), at("12:00")), VerdictPartlyHeld},
		{"v17 b", pQ, span(at("00:00"), at("09:30")), VerdictPartlyHeld},
		{"v17 c", pQ, span(at("09:15"), at("09:45")), VerdictPartlyHeld},
		{"v17 touching", pQ, span(at("00:00"), at("09:00")), VerdictPartlyHeld},
		{"v18", pQ, HeldUnknownSpan(), VerdictUnknown},
		{"v19 offset", pQ, span("2026-09-26T11:00:00+02:00", "2026-09-26T12:00:00+02:00"), VerdictCovered},
		{"v19 offset late", pQ, span("2026-09-26T11:00:01+02:00", "2026-09-26T12:00:00+02:00"), VerdictPartlyHeld},
		{"v20 a", Span{"2026-09-26T09:00:00.000000001Z", "2026-09-26T09:00:00.000000002Z"}, span("2026-09-26T09:00:00.000000001Z", "2026-09-26T09:00:00.000000002Z"), VerdictCovered},
		{"v20 b", Span{"2026-09-26T09:00:00.000000001Z", "2026-09-26T09:00:00.000000002Z"}, span("2026-09-26T09:00:00.000000002Z", "2026-09-26T09:00:00.000000003Z"), VerdictPartlyHeld},
		{"v20 c", Span{"2026-09-26T09:00:00.000000001Z", "2026-09-26T09:00:00.000000002Z"}, span("2026-09-26T09:00:00.000000003Z", "2026-09-26T09:00:00.000000009Z"), VerdictNotHeld},
		{"v21 leap", Span{"2017-01-01T00:00:00Z", "2017-01-01T00:00:00Z"}, span("2016-12-31T00:00:00Z", "2016-12-31T23:59:60Z"), VerdictCovered},
	}
	for _, c := range cases {
		got, err := VerdictOf(Period{Queried: c.q, Held: c.h})
		if err != nil || got != c.want {
			t.Errorf("%s: got %q %v, want %q", c.name, got, err, c.want)
		}
	}
	// v22: a malformed period is a caller error naming the field.
	if _, err := VerdictOf(Period{Queried: pQ, Held: span("soon", "soon")}); err == nil || !strings.Contains(err.Error(), "period.held") {
		t.Errorf("malformed: %v", err)
	}
}

func TestLeastHeld(t *testing.T) { // v23
	cases := []struct {
		in   []Verdict
		want Verdict
		ok   bool
	}{
		{[]Verdict{VerdictCovered, VerdictNotHeld}, VerdictNotHeld, true},
		{[]Verdict{VerdictUnknown, VerdictPartlyHeld, VerdictCovered}, VerdictPartlyHeld, true},
		{[]Verdict{VerdictCovered, VerdictUnknown}, VerdictUnknown, true},
		{[]Verdict{VerdictCovered}, VerdictCovered, true},
		{nil, "", false},
	}
	for _, c := range cases {
		got, ok := LeastHeld(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("%v: got %q %v", c.in, got, ok)
		}
	}
}

func TestPeriodLine(t *testing.T) {
	got := PeriodLine("backup_runs", Period{Queried: pQ, Held: Held{Span: pH}}) // v24
	want := "backup_runs queried 2026-09-26T09:00:00Z to 2026-09-26T10:00:00Z; the store holds 2026-08-27T02:00:00Z to 2026-09-26T02:00:00Z"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	got = PeriodLine("search_logs", Period{Queried: pQ, Held: HeldUnknownSpan(), ReadAt: "2026-09-26T10:00:03Z"}) // v25
	prefix := "search_logs queried 2026-09-26T09:00:00Z to 2026-09-26T10:00:00Z; "
	if !strings.HasPrefix(got, prefix) {
		t.Fatalf("got %q", got)
	}
	rest := strings.TrimPrefix(got, prefix)
	if !strings.HasSuffix(rest, "2026-09-26T10:00:03Z") || strings.Count(rest, "2026-") != 1 {
		t.Errorf("the only other instant must be readAt, closing the line: %q", rest)
	}
}

func TestServedPeriodVectors(t *testing.T) {
	seed := j(t, `{"queried":`+qJSON+`,"held":`+hJSON+`}`)
	sp, ok := ServedPeriod(seed) // v26
	if !ok || sp.Verdict != VerdictNotHeld || sp.Clause != periodVerdictClauses()[VerdictNotHeld] {
		t.Fatalf("seed: %+v %v", sp, ok)
	}
	if k := strings.Join(sp.Period.Keys(), ","); k != "queried,held,verdict" {
		t.Errorf("keys %s", k)
	}
	if v, _ := sp.Period.Get("verdict"); v != "not-held" {
		t.Errorf("verdict %v", v)
	}
	// v27
	cases := []struct {
		in   any
		want Verdict
		ok   bool
	}{
		{j(t, `{"queried":`+qJSON+`,"held":{"from":"2026-08-27T09:30:00Z","to":"2026-09-26T09:30:00Z"}}`), VerdictPartlyHeld, true},
		{j(t, `{"queried":`+qJSON+`,"held":"unknown"}`), VerdictUnknown, true},
		{j(t, `{"queried":`+qJSON+`,"held":{"from":"2026-08-27T10:00:00Z","to":"2026-09-26T10:00:00Z"}}`), "", false},
		{nil, "", false},
		{j(t, `{"queried":`+qJSON+`,"held":"unknown","verdict":"unknown"}`), "", false},
	}
	for i, c := range cases {
		sp, ok := ServedPeriod(c.in)
		if ok != c.ok || sp.Verdict != c.want {
			t.Errorf("case %d: %+v %v", i, sp, ok)
		}
	}
	// v28
	if got := UnservedPeriod(sp.Period); mustJSON(t, got) != mustJSON(t, seed) {
		t.Errorf("inverse: %s", mustJSON(t, got))
	}
	forged := map[string]any{"queried": map[string]any{"from": at("09:00"), "to": at("10:00")}, "held": map[string]any{"from": at("00:00"), "to": at("12:00")}, "verdict": "covered"}
	if got := UnservedPeriod(forged); got.(map[string]any)["verdict"] != "covered" {
		t.Error("covered word was removed")
	}
	wrong := j(t, `{"queried":`+qJSON+`,"held":`+hJSON+`,"verdict":"unknown"}`).(Object)
	if got := UnservedPeriod(wrong); len(got.(Object)) != 3 || &got.(Object)[0] != &wrong[0] {
		t.Error("a forged word did not come back as the same value")
	}
}

func TestNoteHelpers(t *testing.T) { // v29
	if noteWithClause("N", "C") != "N C" || noteWithClause("", "C") != "C" || noteWithClause(42, "C") != "C" {
		t.Error("NoteWithClause")
	}
	if v, ok := noteWithoutClause("N C", "C"); v != "N" || !ok {
		t.Error("cut")
	}
	if v, ok := noteWithoutClause("C", "C"); v != nil || ok {
		t.Error("delete")
	}
	if v, ok := noteWithoutClause("N", "C"); v != "N" || !ok {
		t.Error("as found")
	}
	if v, ok := noteWithoutClause(42, "C"); v != 42 || !ok {
		t.Error("non-string")
	}
}

// TestInstantFaultsNamed: an instant that carries its zone but is invalid is refused for what is
// wrong with it, not for a missing zone (issue 12 item 10).
func TestInstantFaultsNamed(t *testing.T) {
	cases := []struct{ in, want string }{
		{"2026-02-29T09:00:00Z", "that day does not exist: 2026-02 has 28 days"},
		{"2026-04-31T09:00:00+02:00", "that day does not exist"},
		{"2026-09-26T24:00:00Z", "the hour must be 00 to 23"},
		{"2026-09-26T09:60:00Z", "the minute must be 00 to 59"},
		{"2026-09-26T09:00:61Z", "the second must be 00 to 60"},
		{"2026-09-26T09:00:00.1234567890Z", "1 to 9 digits"},
		{"2026-09-26T09:00.5Z", "needs the seconds written before it"},
		{"2026-13-01T09:00:00Z", "the month must be 01 to 12"},
		{"2026-09-26T09:00:00+24:00", "at most ±23:59"},
		{"2026-09-26T09:00:00", "the zone is missing"},
		{"2026-09-26", "a date alone is not an instant"},
		{"2026-09-26 09:00:00Z", "a T must separate"},
		{"yesterday", "written YYYY-MM-DDThh:mm"},
		{"2026-09-26T09:00:00Zulu", "text after the zone"},
	}
	for _, c := range cases {
		_, err := MintPeriod(map[string]any{"queried": map[string]any{"from": c.in, "to": "2026-09-26T10:00:00Z"}, "held": "unknown"})
		r := refusedAt(t, err, "period.queried.from")
		if r == nil {
			continue
		}
		if !strings.Contains(r.Message, c.want) {
			t.Errorf("%s: %s", c.in, r.Message)
		}
		if c.want != "the zone is missing" && strings.Contains(r.Message, "zone is missing") {
			t.Errorf("%s carries its zone but is refused for a missing one: %s", c.in, r.Message)
		}
	}
	// A non-text value is named by its type.
	_, err := MintPeriod(map[string]any{"queried": map[string]any{"from": 5, "to": "2026-09-26T10:00:00Z"}, "held": "unknown"})
	if r := refusedAt(t, err, "period.queried.from"); r != nil && !strings.Contains(r.Message, "a number") {
		t.Errorf("number: %s", r.Message)
	}
}
