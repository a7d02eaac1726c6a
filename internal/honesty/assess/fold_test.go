// Tests for the fold: the vectors R8 to R11, the fold laws, the layer-3 reasons over history and
// coverage rows, and the same answer from every source of the record.

package assess

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/honesty/assess"
	"github.com/google/go-cmp/cmp"
)

func period(call, verdict string, turn int, extra string) string {
	return fmt.Sprintf(`{"kind":"period","turn":%d,"toolCallId":%q,"toolName":"backup_runs","iteration":1,"verdict":%q%s}`, turn, call, verdict, extra)
}

func argument(call, arg, source string, turn int) string {
	return fmt.Sprintf(`{"kind":"argument","turn":%d,"toolCallId":%q,"toolName":"search_logs","iteration":1,"argument":%q,"rule":"assume","period":true,"source":%q,"value":"2h"}`, turn, call, arg, source)
}

// input decodes a JSON object of state keys.
func input(t *testing.T, js string) Input {
	t.Helper()
	s, err := InputFromJSON([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func sp(path string) assess.Pointer { return StatePointer("findingsLedger", path) }

// checkWitnesses fails when a witness does not resolve in the record.
func checkWitnesses(t *testing.T, s Input, a assess.Assessment) {
	t.Helper()
	for _, r := range a.Reasons {
		for _, p := range r.Witness {
			if _, ok := Resolve(p, s); !ok {
				t.Errorf("reason %s: witness %+v does not resolve", r.Reason, p)
			}
		}
	}
	for _, c := range a.Checked {
		for _, p := range c.Witness {
			if _, ok := Resolve(p, s); !ok {
				t.Errorf("check %s: witness %+v does not resolve", c.Check, p)
			}
		}
	}
}

func TestPeriodVerdicts(t *testing.T) { // R8
	for _, v := range []string{"not-held", "partly-held", "unknown", "undeclared", "covered"} {
		t.Run(v, func(t *testing.T) {
			s := input(t, `{"turnNumber":1,"findingsLedger":[`+period("c1", v, 1, "")+`]}`)
			a := Fold(s)
			checkWitnesses(t, s, a)
			wantReasons := []assess.Reason{{Reason: "period-" + v, Layer: 3, Witness: []assess.Pointer{sp("/0/verdict")}}}
			wantStanding := assess.StandingNotSure
			if v == "covered" {
				wantReasons, wantStanding = []assess.Reason{}, assess.StandingConsistent
			}
			if diff := cmp.Diff(wantReasons, a.Reasons); diff != "" {
				t.Errorf("reasons (-want +got):\n%s", diff)
			}
			if a.Standing != wantStanding {
				t.Errorf("standing %s, want %s", a.Standing, wantStanding)
			}
			wantChecked := []assess.Check{{Layer: 3, Check: CheckResultPeriod, Ran: 1, Of: 1, Witness: []assess.Pointer{sp("/0/verdict")}}}
			if diff := cmp.Diff(wantChecked, a.Checked); diff != "" {
				t.Errorf("checked (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTurnScope(t *testing.T) { // R9, S12, S18
	a := Fold(input(t, `{"turnNumber":2,"findingsLedger":[`+period("c1", "not-held", 1, "")+`]}`))
	if len(a.Reasons) != 0 || len(a.Checked) != 0 || a.Standing != assess.StandingNotAssessed {
		t.Errorf("turn 2 folded a turn-1 row: %+v", a)
	}
	a = Fold(input(t, `{"findingsLedger":[`+period("c1", "not-held", 1, "")+`]}`))
	if len(a.Reasons) != 1 || a.Reasons[0].Reason != assess.ReasonPeriodNotHeld {
		t.Errorf("with no turnNumber every row is read: %+v", a.Reasons)
	}
	// S12: turn 1 covered, turn 2 reuses c1 and is not held; turn 2 reads only its own row.
	s := input(t, `{"turnNumber":2,"findingsLedger":[`+period("c1", "covered", 1, "")+`,`+period("c1", "not-held", 2, "")+`]}`)
	a = Fold(s)
	want := []assess.Reason{{Reason: assess.ReasonPeriodNotHeld, Layer: 3, Witness: []assess.Pointer{sp("/1/verdict")}}}
	if diff := cmp.Diff(want, a.Reasons); diff != "" {
		t.Errorf("S12 reasons (-want +got):\n%s", diff)
	}
	if a.Checked[0].Of != 1 {
		t.Errorf("S12 result-period of %d, want 1", a.Checked[0].Of)
	}
}

func TestArgumentJoin(t *testing.T) { // R10
	s := input(t, `{"turnNumber":1,"findingsLedger":[`+argument("c1", "window", "default", 1)+`,`+period("c1", "not-held", 1, `,"argument":"window"`)+`]}`)
	a := Fold(s)
	checkWitnesses(t, s, a)
	want := []assess.Reason{
		{Reason: assess.ReasonArgumentAssumed, Layer: 2, Witness: []assess.Pointer{sp("/0/argument")}},
		{Reason: assess.ReasonPeriodNotHeld, Layer: 3, Witness: []assess.Pointer{sp("/1/verdict"), sp("/0/argument")}},
	}
	if diff := cmp.Diff(want, a.Reasons); diff != "" {
		t.Errorf("reasons (-want +got):\n%s", diff)
	}
	// No join across calls, across turns, or without the argument name.
	for _, js := range []string{
		`[` + argument("c2", "window", "default", 1) + `,` + period("c1", "not-held", 1, `,"argument":"window"`) + `]`,
		`[` + argument("c1", "window", "default", 1) + `,` + period("c1", "not-held", 1, ``) + `]`,
		`[` + argument("c1", "range", "default", 1) + `,` + period("c1", "not-held", 1, `,"argument":"window"`) + `]`,
	} {
		a := Fold(input(t, `{"turnNumber":1,"findingsLedger":`+js+`}`))
		last := a.Reasons[len(a.Reasons)-1]
		if len(last.Witness) != 1 {
			t.Errorf("%s: joined across calls or names: %+v", js, last.Witness)
		}
	}
	// The current argument row is the last per (turn, call, argument).
	a = Fold(input(t, `{"turnNumber":1,"findingsLedger":[`+argument("c1", "window", "default", 1)+`,`+argument("c1", "window", "answered", 1)+`,`+period("c1", "covered", 1, `,"argument":"window"`)+`]}`))
	if len(a.Reasons) != 0 || a.Standing != assess.StandingConsistent {
		t.Errorf("an answered row did not supersede the assumed one: %+v", a)
	}
}

func TestUnknownVerdictWord(t *testing.T) { // R11
	a := Fold(input(t, `{"turnNumber":1,"findingsLedger":[`+period("c1", "stale", 1, "")+`,{"kind":"clock","turn":1}]}`))
	if len(a.Reasons) != 0 {
		t.Errorf("a verdict the fold does not know fired %+v", a.Reasons)
	}
	if len(a.Checked) != 1 || a.Checked[0].Ran != 1 || a.Checked[0].Of != 1 {
		t.Errorf("checked = %+v, want result-period ran 1 of 1", a.Checked)
	}
}

func TestOnceperVerdictKind(t *testing.T) { // S14
	s := input(t, `{"turnNumber":1,"findingsLedger":[`+period("c1", "unknown", 1, "")+`,`+period("c2", "not-held", 1, "")+`,`+period("c3", "not-held", 1, "")+`]}`)
	a := Fold(s)
	want := []assess.Reason{
		{Reason: assess.ReasonPeriodNotHeld, Layer: 3, Witness: []assess.Pointer{sp("/1/verdict"), sp("/2/verdict")}},
		{Reason: assess.ReasonPeriodUnknown, Layer: 3, Witness: []assess.Pointer{sp("/0/verdict")}},
	}
	if diff := cmp.Diff(want, a.Reasons); diff != "" {
		t.Errorf("reasons (-want +got):\n%s", diff)
	}
	if a.Checked[0].Ran != 3 {
		t.Errorf("result-period ran %d, want 3", a.Checked[0].Ran)
	}
}

const q = `{"from":"2026-09-26T09:00:00Z","to":"2026-09-26T10:00:00Z"}`

// s1 is the S1 record: the person asks, the model calls backup_runs, the absence is served.
const s1 = `{"turnNumber":1,"userMessage":"Any failed backups for host-103 at 09:00?",
 "history":[
  {"role":"user","content":"Any failed backups for host-103 at 09:00?"},
  {"role":"assistant","toolCalls":[{"id":"c1","name":"backup_runs","args":{}}]},
  {"role":"tool","toolCallId":"c1","toolName":"backup_runs","content":"{\"af_absent\":true,\"outcome\":\"nothing_found\",\"looked_for\":\"failed backup runs for host-103\",\"checked\":[{\"what\":\"every job in the 02:00 export\"}],\"not_checked\":[],\"cannot_cover\":[]}"},
  {"role":"assistant","content":"No failures."}],
 "coverageDeclared":[{"kind":"absence","toolName":"backup_runs","toolCallId":"c1","iteration":1,"lookedFor":"failed backup runs for host-103","checked":[{"what":"every job in the 02:00 export"}],"notChecked":[],"cannotCover":[],"period":{"queried":` + q + `,"held":{"from":"2026-08-27T02:00:00Z","to":"2026-09-26T02:00:00Z"}}}],
 "findingsLedger":[{"kind":"period","turn":1,"toolCallId":"c1","toolName":"backup_runs","iteration":1,"verdict":"not-held"}]}`

func TestS1(t *testing.T) {
	s := input(t, s1)
	a := Fold(s)
	checkWitnesses(t, s, a)
	got, _ := json.Marshal(a)
	want := `{"assessment":"unknown","standing":"not-sure","reasons":[` +
		`{"reason":"declared-absent","layer":3,"witness":[{"kind":"state","key":"coverageDeclared","path":"/0/kind"}]},` +
		`{"reason":"period-not-held","layer":3,"witness":[{"kind":"state","key":"findingsLedger","path":"/0/verdict"}]}],` +
		`"checked":[{"layer":3,"check":"tool-coverage","ran":1,"of":1,"witness":[{"kind":"history","index":2,"path":"/content","toolCallId":"c1"}]},` +
		`{"layer":3,"check":"result-shape","ran":1,"of":1,"witness":[{"kind":"history","index":2,"path":"/content","toolCallId":"c1"}]},` +
		`{"layer":3,"check":"result-period","ran":1,"of":1,"witness":[{"kind":"state","key":"findingsLedger","path":"/0/verdict"}]}],"turnFrom":"person"}`
	if string(got) != want {
		t.Errorf("S1 assessment:\n got %s\nwant %s", got, want)
	}
}

func TestLayer3Reasons(t *testing.T) {
	tool := func(i int, id, content string) string {
		b, _ := json.Marshal(content)
		return fmt.Sprintf(`{"role":"tool","toolCallId":%q,"toolName":"search_logs","content":%s}`, id, b)
	}
	hist := func(msgs ...string) string {
		return `"history":[{"role":"user","content":"earlier"},` + tool(0, "old", "[]") +
			`,{"role":"user","content":"now"},{"role":"assistant","content":""}` + strings.Join(append([]string{""}, msgs...), ",") + `]`
	}
	tests := []struct {
		name    string
		js      string
		reasons []string
		checked string // tool-coverage and result-shape as "ran/of ran/of"
	}{
		{"S6 bare empty list, no coverage row",
			`{"turnNumber":2,"userMessage":"now",` + hist(tool(0, "s1", "[]")) + `,"findingsLedger":[` + argument("s1", "window", "default", 2) + `,` + period("s1", "undeclared", 2, `,"argument":"window"`) + `]}`,
			[]string{assess.ReasonArgumentAssumed, assess.ReasonEmptyUndeclared, assess.ReasonPeriodUndeclared}, "0/1 1/1"},
		{"non-empty list is no reason",
			`{"turnNumber":1,"userMessage":"now",` + hist(tool(0, "s1", `[{"line":"x"}]`)) + `}`,
			[]string{}, "0/1 1/1"},
		{"Wrap around an empty list is a declared absence",
			`{"turnNumber":1,"userMessage":"now",` + hist(tool(0, "s1", `{"af_coverage":{"checked":[{"what":"the last hour"}],"not_checked":[],"cannot_cover":[]},"result":[]}`)) +
				`,"coverageDeclared":[{"kind":"ledger","toolName":"search_logs","toolCallId":"s1","iteration":1,"checked":[{"what":"the last hour"}],"notChecked":[],"cannotCover":[{"what":"archived logs","why":"kept offline"}]}]}`,
			[]string{assess.ReasonCoverageGap, assess.ReasonDeclaredAbsent}, "1/1 1/1"},
		{"plain text reads unknown",
			`{"turnNumber":1,"userMessage":"now",` + hist(tool(0, "s1", "all good")) + `}`,
			[]string{}, "0/1 0/1"},
		{"earlier turn's empty list is not folded",
			`{"turnNumber":2,"userMessage":"now",` + hist() + `}`,
			[]string{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := input(t, tt.js)
			a := Fold(s)
			checkWitnesses(t, s, a)
			got := []string{}
			for _, r := range a.Reasons {
				got = append(got, r.Reason)
			}
			if diff := cmp.Diff(tt.reasons, got); diff != "" {
				t.Errorf("reasons (-want +got):\n%s", diff)
			}
			var shape []string
			for _, c := range a.Checked {
				if c.Check == CheckToolCoverage || c.Check == CheckResultShape {
					shape = append(shape, fmt.Sprintf("%d/%d", c.Ran, c.Of))
				}
			}
			if g := strings.Join(shape, " "); g != tt.checked {
				t.Errorf("tool-coverage and result-shape = %q, want %q", g, tt.checked)
			}
		})
	}
}

func TestArgumentAskedIsAsk(t *testing.T) {
	s := input(t, `{"turnNumber":1,"argumentAsk":{"waiting":{"requestId":"r1"}},"findingsLedger":[`+
		`{"kind":"argument","turn":1,"toolCallId":"c1","toolName":"search_logs","iteration":1,"argument":"window","rule":"ask","asked":"missing"},`+
		period("c2", "not-held", 1, "")+`]}`)
	a := Fold(s)
	checkWitnesses(t, s, a)
	if a.Standing != assess.StandingAsk || a.Reasons[0].Reason != assess.ReasonArgumentAsked || len(a.Reasons[0].Witness) != 2 {
		t.Errorf("an open question must make the standing ask: %+v", a)
	}
}

// TestFoldLaws pins the five laws of the fold.
func TestFoldLaws(t *testing.T) {
	t.Run("1 no known from silence", func(t *testing.T) {
		for _, js := range []string{
			`{"turnNumber":1,"findingsLedger":[` + period("c1", "covered", 1, "") + `]}`,
			`{"turnNumber":1,"userMessage":"q","history":[{"role":"user","content":"q"},{"role":"tool","toolCallId":"c","toolName":"t","content":"[1]"}]}`,
		} {
			a := Fold(input(t, js))
			if a.Standing != assess.StandingConsistent || a.Assessment != assess.ValueUnrefuted {
				t.Errorf("%s: standing %s/%s, want consistent/unrefuted", js, a.Assessment, a.Standing)
			}
		}
	})
	t.Run("2 declared silence is a reason", func(t *testing.T) {
		a := Fold(input(t, `{"turnNumber":1,"findingsLedger":[`+period("c1", "undeclared", 1, "")+`]}`))
		if a.Standing != assess.StandingNotSure {
			t.Errorf("undeclared gave %s", a.Standing)
		}
	})
	t.Run("3 this turn only", func(t *testing.T) {
		a := Fold(input(t, `{"turnNumber":3,"findingsLedger":[`+period("c1", "not-held", 1, "")+`,`+period("c1", "not-held", 2, "")+`,`+argument("c1", "window", "default", 2)+`]}`))
		if len(a.Reasons) != 0 || len(a.Checked) != 0 {
			t.Errorf("earlier turns folded: %+v", a)
		}
	})
	t.Run("4 every call counts: a covered call never hides a not-held one", func(t *testing.T) {
		a := Fold(input(t, `{"turnNumber":1,"findingsLedger":[`+period("c1", "not-held", 1, "")+`,`+period("c1", "covered", 1, "")+`]}`))
		if a.Standing != assess.StandingNotSure || a.Checked[0].Of != 2 {
			t.Errorf("a later covered row hid an earlier not-held one: %+v", a)
		}
	})
	t.Run("5 an unarmed check is neither reason nor entry", func(t *testing.T) {
		a := Fold(input(t, `{"turnNumber":1}`))
		want := assess.Assessment{Assessment: assess.ValueNotApplicable, Standing: assess.StandingNotAssessed, Reasons: []assess.Reason{}, Checked: []assess.Check{}, TurnFrom: TurnFromWholeHistory}
		if diff := cmp.Diff(want, a); diff != "" {
			t.Errorf("empty record (-want +got):\n%s", diff)
		}
	})
}

func TestTimeCheckReasons(t *testing.T) {
	differs := `,"argument":"window","differs":{"against":"asked","asked":{"from":"a","to":"b"},"read":[],"source":"declared","missing":[{"from":"a","to":"b"}],"extra":[]}`
	s := input(t, `{"turnNumber":1,"findingsLedger":[`+argument("c1", "window", "model", 1)+`,`+
		period("c1", "covered", 1, differs)+`,`+
		period("c2", "undeclared", 1, `,"beyondRetention":true`)+`,`+
		period("c3", "covered", 1, `,"shifted":{"byMs":90000}`)+`,`+
		period("c4", "covered", 1, `,"partlyBeyondRetention":true`)+`]}`)
	a := Fold(s)
	checkWitnesses(t, s, a)
	want := []assess.Reason{
		{Reason: assess.ReasonArgumentUnverified, Layer: 2, Witness: []assess.Pointer{sp("/0/argument")}},
		{Reason: assess.ReasonPeriodUndeclared, Layer: 3, Witness: []assess.Pointer{sp("/2/verdict")}},
		{Reason: assess.ReasonPeriodDiffersFromAsked, Layer: 3, Witness: []assess.Pointer{sp("/1/differs/against"), sp("/0/argument"), sp("/3/shifted/byMs")}},
		{Reason: assess.ReasonPeriodBeyondRetention, Layer: 3, Witness: []assess.Pointer{sp("/2/beyondRetention")}},
	}
	if diff := cmp.Diff(want, a.Reasons); diff != "" {
		t.Errorf("reasons (-want +got):\n%s", diff)
	}
}
