package inputs_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	pubinputs "github.com/agentfootprint/agentfootprint-go/honesty/inputs"
	"github.com/agentfootprint/agentfootprint-go/honesty/ledger"
	"github.com/agentfootprint/agentfootprint-go/internal/honesty/inputs"
	ledgerops "github.com/agentfootprint/agentfootprint-go/internal/honesty/ledger"
	"github.com/agentfootprint/agentfootprint-go/tool"
	"github.com/google/go-cmp/cmp"
)

type searchIn struct {
	Service string `json:"service"`
	Window  string `json:"window" jsonschema:"how far back to look"`
}

type countIn struct {
	Limit int `json:"limit"`
}

func searchTool(t *testing.T, rule tool.Rule, opts ...tool.Option) *tool.Tool {
	t.Helper()
	opts = append([]tool.Option{tool.WithAskOrAssume(map[string]tool.Rule{"window": rule}),
		tool.WithPeriod(tool.Period{Argument: "window", Spelling: tool.SpellingLookback})}, opts...)
	st, err := tool.New("search_logs", "Search logs.", func(context.Context, searchIn) ([]string, error) { return nil, nil }, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func toolsOf(ts ...*tool.Tool) inputs.ToolOf {
	return func(name string) (*tool.Tool, bool) {
		for _, t := range ts {
			if t.Name() == name {
				return t, true
			}
		}
		return nil, false
	}
}

func TestIsMissing(t *testing.T) {
	args := map[string]json.RawMessage{"a": json.RawMessage(`null`), "b": json.RawMessage(`"  "`), "c": json.RawMessage(`"x"`), "d": json.RawMessage(`0`)}
	for name, want := range map[string]bool{"a": true, "b": true, "c": false, "d": false, "absent": true} {
		if got := inputs.IsMissing(args, name); got != want {
			t.Errorf("IsMissing(%s) = %v, want %v", name, got, want)
		}
	}
}

func TestSameValue(t *testing.T) {
	cases := []struct {
		a, b any
		want bool
	}{
		{"2h", "2h", true}, {"2H", " 2h ", true}, {"2h", "24h", false}, {"--", "--", false},
		{2, 2.0, true}, {2, "2", false}, {true, true, true}, {true, false, false}, {nil, nil, false},
	}
	for _, c := range cases {
		if got := inputs.SameValue(c.a, c.b); got != c.want {
			t.Errorf("SameValue(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

func TestPrinted(t *testing.T) {
	long := strings.Repeat("x", 100)
	cases := []struct {
		v      any
		hidden bool
		want   string
	}{
		{"2h", false, "2h"}, {3, false, "3"}, {true, false, "true"}, {"2h", true, "REDACTED"},
		{long, false, strings.Repeat("x", 79) + "…"},
	}
	for _, c := range cases {
		if got := inputs.Printed(c.v, c.hidden); got != c.want {
			t.Errorf("Printed(%v, %v) = %q, want %q", c.v, c.hidden, got, c.want)
		}
	}
	if got := inputs.Quoted("2h"); got != `"2h"` {
		t.Errorf("Quoted = %s", got)
	}
}

func TestResolveTable(t *testing.T) {
	st := inputs.Stamp{Turn: 1, Iteration: 1}
	assume := searchTool(t, tool.Rule{Assume: "2h"})
	row := func(mut func(*ledger.ArgumentRow)) ledger.ArgumentRow {
		r := ledger.ArgumentRow{Kind: "argument", Turn: 1, ToolCallID: "c1", ToolName: "search_logs", Iteration: 1,
			Argument: "window", Rule: "assume", Period: true}
		mut(&r)
		return r
	}
	cases := []struct {
		name  string
		t     *tool.Tool
		args  string
		rows  []ledger.ArgumentRow
		fills []inputs.Fill
		ask   []string
	}{
		{"missing under assume fills the default", assume, `{"service":"checkout"}`,
			[]ledger.ArgumentRow{row(func(r *ledger.ArgumentRow) { r.Source, r.Value = "default", "2h" })},
			[]inputs.Fill{{Argument: "window", Value: "2h", Source: "default"}}, nil},
		{"echoed default runs as sent", assume, `{"service":"checkout","window":"2h"}`,
			[]ledger.ArgumentRow{row(func(r *ledger.ArgumentRow) { r.Source, r.Value, r.Proposed = "default", "2h", "2h" })}, nil, nil},
		{"another value is the model's", assume, `{"service":"checkout","window":"24h"}`,
			[]ledger.ArgumentRow{row(func(r *ledger.ArgumentRow) { r.Source, r.Value = "model", "24h" })}, nil, nil},
		{"missing under ask is asked", searchTool(t, tool.Rule{Ask: "How far back?"}), `{"service":"checkout"}`,
			[]ledger.ArgumentRow{row(func(r *ledger.ArgumentRow) { r.Rule, r.Asked = "ask", "missing" })}, nil, []string{"window"}},
		{"hidden value is redacted", searchTool(t, tool.Rule{Assume: "2h"}, tool.WithHiddenArguments("window")), `{}`,
			[]ledger.ArgumentRow{row(func(r *ledger.ArgumentRow) { r.Source, r.Value = "default", "REDACTED" })},
			[]inputs.Fill{{Argument: "window", Value: "2h", Source: "default"}}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := inputs.Resolve([]inputs.Call{{ID: "c1", Name: "search_logs", Args: json.RawMessage(c.args)}}, toolsOf(c.t), st)
			if diff := cmp.Diff(c.rows, b.Rows); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
			want := []inputs.Resolution{{ToolCallID: "c1", Iteration: 1, Fills: c.fills, Ask: c.ask}}
			if diff := cmp.Diff(want, b.Resolutions); diff != "" {
				t.Errorf("resolutions (-want +got):\n%s", diff)
			}
			for _, r := range b.Rows {
				raw, _ := json.Marshal(ledger.FromArgument(r))
				var m map[string]any
				_ = json.Unmarshal(raw, &m)
				if !ledgerops.ArgumentRowIsWellFormed(m) {
					t.Errorf("row %s fails the door", raw)
				}
			}
		})
	}
}

func TestResolveSkipsUnruledAndUnknown(t *testing.T) {
	plain, err := tool.New("plain", "p", func(context.Context, searchIn) (string, error) { return "", nil })
	if err != nil {
		t.Fatal(err)
	}
	b := inputs.Resolve([]inputs.Call{{ID: "a", Name: "plain"}, {ID: "b", Name: "nope"}}, toolsOf(plain), inputs.Stamp{Turn: 1, Iteration: 1})
	if len(b.Rows) != 0 || len(b.Resolutions) != 0 {
		t.Errorf("got %+v, want nothing", b)
	}
}

func TestApplyLeavesArgsUntouched(t *testing.T) {
	args := json.RawMessage(`{"service":"checkout"}`)
	got, err := inputs.Apply(args, []inputs.Fill{{Argument: "window", Value: "2h"}})
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != `{"service":"checkout","window":"2h"}` || string(args) != `{"service":"checkout"}` {
		t.Errorf("Apply = %s (args %s)", got, args)
	}
	if _, err := inputs.Apply(json.RawMessage(`[1]`), []inputs.Fill{{Argument: "a", Value: 1}}); err == nil {
		t.Error("Apply on a list: want an error")
	}
}

func TestPayloadCarriesNoValue(t *testing.T) {
	r := ledger.ArgumentRow{Kind: "argument", Turn: 1, ToolCallID: "c1", ToolName: "search_logs", Iteration: 1, Argument: "window",
		Rule: "assume", Period: true, Source: "default", Value: "2h"}
	b, _ := json.Marshal(inputs.Payload(r, false))
	want := `{"toolCallId":"c1","toolName":"search_logs","iteration":1,"turn":1,"argument":"window","rule":"assume","period":true,"source":"default","valueChars":2}`
	if string(b) != want {
		t.Errorf("payload\n got %s\nwant %s", b, want)
	}
	r.Value = "REDACTED"
	b, _ = json.Marshal(inputs.Payload(r, true))
	if strings.Contains(string(b), "valueChars") || !strings.Contains(string(b), `"hidden":true`) {
		t.Errorf("hidden payload %s", b)
	}
}

func TestAssumedBlock(t *testing.T) {
	cases := []struct {
		name string
		in   []inputs.AssumedValue
		want string
	}{
		{"none", nil, ""},
		{"one", []inputs.AssumedValue{{ToolName: "search_logs", Argument: "window", Shown: `"2h"`}},
			"Assumed (a tool's rule chose these values, not the person):\n- window = \"2h\" (search_logs)"},
		{"hidden", []inputs.AssumedValue{{ToolName: "search_logs", Argument: "window", Hidden: true}},
			"Assumed (a tool's rule chose these values, not the person):\n- window is set to a value the tool's view hides (search_logs)"},
	}
	for _, c := range cases {
		if got := inputs.AssumedBlock(c.in); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
	var many []inputs.AssumedValue
	for range 14 {
		many = append(many, inputs.AssumedValue{ToolName: "t", Argument: "a", Shown: "1"})
	}
	got := inputs.AssumedBlock(many)
	if n := strings.Count(got, "\n- a = 1"); n != 12 || !strings.HasSuffix(got, "\n- … 2 more not shown here; the run record lists them all") {
		t.Errorf("cap: %d lines, block %q", n, got)
	}
}

func TestAssumedRowsDedupesCurrentDefaults(t *testing.T) {
	mk := func(id, src, val string) ledger.Row {
		return ledger.FromArgument(ledger.ArgumentRow{Kind: "argument", Turn: 2, ToolCallID: id, ToolName: "s", Iteration: 1,
			Argument: "w", Rule: "assume", Source: src, Value: val})
	}
	rows := []ledger.Row{mk("c1", "default", "2h"), mk("c2", "default", "2h"), mk("c3", "model", "1h"), mk("c4", "default", "7d")}
	got := inputs.AssumedRows(rows, 2)
	if len(got) != 2 || got[0].Value != "2h" || got[1].Value != "7d" {
		t.Errorf("AssumedRows = %+v", got)
	}
	if len(inputs.AssumedRows(rows, 1)) != 0 {
		t.Error("rows of another turn were read")
	}
}

func TestSentences(t *testing.T) {
	cases := map[string]string{
		inputs.AssumedClause("search_logs", "window", "2h", false):        `The search_logs call this result answers had no window; it ran with "2h", the default the tool's rule declares, and the record files that value as assumed, not as the person's choice.`,
		inputs.AssumedClause("search_logs", "window", "2h", true):         `The search_logs call this result answers had no window; it ran with a value the tool's view hides, the default the tool's rule declares, and the record files that value as assumed, not as the person's choice.`,
		inputs.AnsweredClause("search_logs", "window", "7d", false, true): `The value "7d" used for window in this search_logs call came from the person's reply to a question, because the call had left it out.`,
		inputs.MisfitRefusal("count", "limit", "integer"):                 `The count call was not run: none of the person's replies for limit was valid (the tool expects integer).`,
		inputs.Note("x"): "\n\n[x]",
	}
	for got, want := range cases {
		if got != want {
			t.Errorf("\n got %q\nwant %q", got, want)
		}
	}
	if strings.Contains(inputs.AssumeSentence("2h", true), "2h") {
		t.Error("hidden assume sentence prints the value")
	}
}

func TestAskRoundsRefuseAfterThreeMisfits(t *testing.T) {
	count, err := tool.New("count", "Count.", func(context.Context, countIn) (int, error) { return 0, nil },
		tool.WithAskOrAssume(map[string]tool.Rule{"limit": {Ask: "How many?"}}))
	if err != nil {
		t.Fatal(err)
	}
	of := toolsOf(count)
	calls := []inputs.Call{{ID: "c1", Name: "count", Args: json.RawMessage(`{}`)}, {ID: "c2", Name: "count", Args: json.RawMessage(`{}`)}}
	st := inputs.Stamp{Turn: 1, Iteration: 1}
	b := inputs.Resolve(calls, of, st)
	ask, err := inputs.NewAsk(b, calls, of, "r1")
	if err != nil {
		t.Fatal(err)
	}
	wantFields := []pubinputs.Field{{ID: "f1", Type: "number", Description: "How many?"}}
	if diff := cmp.Diff(wantFields, ask.Fields); diff != "" {
		t.Fatalf("fields (-want +got):\n%s", diff)
	}
	ctx, _ := json.Marshal(inputs.Pause(ask).Context)
	if string(ctx) != `{"agentfootprint":{"ask":"arguments","fields":[{"id":"f1","tool":"count","argument":"limit","calls":["c1","c2"]}]}}` {
		t.Errorf("context %s", ctx)
	}
	if _, err := inputs.Answer(ask, pubinputs.Reply{RequestID: "other", Values: map[string]json.RawMessage{"f1": json.RawMessage(`2`)}}, of, st); err == nil {
		t.Error("wrong request id: want an error")
	}
	if _, err := inputs.Answer(ask, pubinputs.Reply{RequestID: "r1"}, of, st); err == nil {
		t.Error("missing field: want an error")
	}
	cur := &ask
	for round := 1; round <= 3; round++ {
		out, err := inputs.Answer(*cur, pubinputs.Reply{RequestID: cur.RequestID, Values: map[string]json.RawMessage{"f1": json.RawMessage(`2.5`)}}, of, st)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range out.Rows {
			if r.Asked != "invalid-answer" || r.Value != "" {
				t.Errorf("round %d row %+v", round, r)
			}
		}
		if round < 3 {
			if out.Next == nil || len(out.Refused) != 0 || inputs.Pause(*out.Next).Question != inputs.QuestionAgain {
				t.Fatalf("round %d: want another round, got %+v", round, out)
			}
			cur = out.Next
			continue
		}
		if out.Next != nil || out.Refused["c1"] != inputs.MisfitRefusal("count", "limit", "integer") || out.Refused["c2"] == "" {
			t.Errorf("round 3: want both calls refused, got %+v", out)
		}
	}
	out, err := inputs.Answer(ask, pubinputs.Reply{RequestID: "r1", Values: map[string]json.RawMessage{"f1": json.RawMessage(`4`)}}, of, st)
	if err != nil {
		t.Fatal(err)
	}
	if out.Next != nil || len(out.Fills["c1"]) != 1 || out.Rows[0].Source != "answered" || out.Rows[0].Value != "4" || !out.Rows[0].Free {
		t.Errorf("fitting answer: %+v", out)
	}
}

func TestServedSchema(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"service":{"type":"string"},"window":{"type":"string","description":"how far back"}},"required":["service","window"]}`)
	got, err := inputs.ServedSchema(schema, map[string]tool.Rule{"window": {Assume: "2h"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"properties":{"service":{"type":"string"},"window":{"description":"how far back If left out, the tool's rule fills \"2h\" and the record marks it assumed.","type":"string"}},"required":["service"],"type":"object"}`
	if string(got) != want {
		t.Errorf("served\n got %s\nwant %s", got, want)
	}
	got, _ = inputs.ServedSchema(json.RawMessage(`{"type":"object","properties":{"limit":{"type":"integer"}},"required":["limit"]}`), map[string]tool.Rule{"limit": {Ask: "How many?"}}, nil)
	if want := `{"properties":{"limit":{"description":"The person will be asked for this value, so leave it out unless the person already stated it.","type":"integer"}},"type":"object"}`; string(got) != want {
		t.Errorf("ask served\n got %s\nwant %s", got, want)
	}
	if _, err := inputs.ServedSchema(json.RawMessage(`[]`), map[string]tool.Rule{"a": {}}, nil); err == nil {
		t.Error("a list schema: want an error")
	}
}

func TestResolveBound(t *testing.T) {
	search := searchTool(t, tool.Rule{Assume: "2h"})
	bind := func(tl *tool.Tool, arg string) (any, bool) { return "90m", arg == "window" }
	b := inputs.ResolveBound([]inputs.Call{{ID: "c1", Name: "search_logs", Args: json.RawMessage(`{"service":"a"}`)},
		{ID: "c2", Name: "search_logs", Args: json.RawMessage(`{"service":"a","window":"1h"}`)}}, toolsOf(search), inputs.Stamp{Turn: 1, Iteration: 1}, bind)
	want := []string{
		`{"kind":"argument","turn":1,"toolCallId":"c1","toolName":"search_logs","iteration":1,"argument":"window","rule":"assume","period":true,"source":"app","value":"90m"}`,
		`{"kind":"argument","turn":1,"toolCallId":"c2","toolName":"search_logs","iteration":1,"argument":"window","rule":"assume","period":true,"source":"model","value":"1h"}`,
	}
	var got []string
	for _, r := range b.Rows {
		got = append(got, mustJSONString(t, r))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	if f := b.Resolutions[0].Fills; len(f) != 1 || f[0] != (inputs.Fill{Argument: "window", Value: "90m", Source: "app"}) {
		t.Errorf("fills %+v", f)
	}
}

func mustJSONString(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

type countsIn struct {
	Window string `json:"window"`
}

// I7: look-back period arguments of two tools share one field when their
// choices match in one spelling; each call is filled in its own spelling,
// and an iso-range tool gets a field of its own.
func TestAskSharesLookbackPeriods(t *testing.T) {
	search := searchTool(t, tool.Rule{Ask: "How far back?", Choices: []tool.Choice{{Value: "1h"}, {Value: "24h"}}})
	counts := tool.Must(tool.New("error_counts", "Count errors.", func(context.Context, countsIn) (int, error) { return 0, nil },
		tool.WithAskOrAssume(map[string]tool.Rule{"window": {Ask: "Over which time?", Choices: []tool.Choice{{Value: "-1h"}, {Value: "-24h"}}}}),
		tool.WithPeriod(tool.Period{Argument: "window", Spelling: tool.SpellingSignedLookback})))
	ranges := tool.Must(tool.New("range_logs", "Logs in a range.", func(context.Context, countsIn) (int, error) { return 0, nil },
		tool.WithAskOrAssume(map[string]tool.Rule{"window": {Ask: "Which range?"}}),
		tool.WithPeriod(tool.Period{Argument: "window", Spelling: tool.SpellingISORange})))
	of := toolsOf(search, counts, ranges)
	calls := []inputs.Call{{ID: "c1", Name: "search_logs", Args: json.RawMessage(`{"service":"a"}`)},
		{ID: "c2", Name: "error_counts", Args: json.RawMessage(`{}`)},
		{ID: "c3", Name: "range_logs", Args: json.RawMessage(`{}`)}}
	st := inputs.Stamp{Turn: 1, Iteration: 1}
	ask, err := inputs.NewAsk(inputs.Resolve(calls, of, st), calls, of, "r1")
	if err != nil {
		t.Fatal(err)
	}
	if len(ask.Fields) != 2 {
		t.Fatalf("fields %+v, want two (one shared, one iso-range)", ask.Fields)
	}
	ctx, _ := json.Marshal(inputs.Pause(ask).Context)
	if want := `{"agentfootprint":{"ask":"arguments","fields":[{"id":"f1","tool":"search_logs","argument":"window","calls":["c1"]},{"id":"f1","tool":"error_counts","argument":"window","calls":["c2"]},{"id":"f2","tool":"range_logs","argument":"window","calls":["c3"]}]}}`; string(ctx) != want {
		t.Errorf("context\n got %s\nwant %s", ctx, want)
	}
	out, err := inputs.Answer(ask, pubinputs.Reply{RequestID: "r1", Values: map[string]json.RawMessage{
		"f1": json.RawMessage(`"24h"`), "f2": json.RawMessage(`"2026-10-09T00:00:00Z..2026-10-09T01:00:00Z"`)}}, of, st)
	if err != nil {
		t.Fatal(err)
	}
	if out.Next != nil || out.Fills["c1"][0].Value != "24h" || out.Fills["c2"][0].Value != "-24h" || len(out.Fills["c3"]) != 1 {
		t.Errorf("fills %+v next %+v", out.Fills, out.Next)
	}
}

func TestResolveFromKeptAnswer(t *testing.T) {
	search := searchTool(t, tool.Rule{Ask: "How far back?"})
	kept := []inputs.KeptAnswer{{ToolName: "search_logs", Argument: "window", Value: "7d", Turn: 2}, {ToolName: "search_logs", Argument: "window", Value: "1h", Turn: 1}}
	b := inputs.ResolveWith([]inputs.Call{{ID: "c9", Name: "search_logs", Args: json.RawMessage(`{"service":"a"}`)}}, toolsOf(search),
		inputs.Stamp{Turn: 2, Iteration: 3}, inputs.Options{Kept: kept})
	want := `{"kind":"argument","turn":2,"toolCallId":"c9","toolName":"search_logs","iteration":3,"argument":"window","rule":"ask","period":true,"source":"answered","value":"7d"}`
	if len(b.Rows) != 1 || mustJSONString(t, b.Rows[0]) != want || b.NeedsAsk() {
		t.Errorf("rows %+v", b.Rows)
	}
	if len(b.Kept) != 1 || b.Kept[0].Turn != 1 || len(kept) != 2 {
		t.Errorf("kept left %+v (input %+v)", b.Kept, kept)
	}
}
