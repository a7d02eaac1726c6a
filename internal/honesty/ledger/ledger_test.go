// Tests for the ledger: the checkpoint door refusing tampered rows by name, rows round-tripping,
// readers skipping unknown kinds and never collapsing period rows, and the merge half.

package ledger

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	"github.com/agentfootprint/agentfootprint-go/honesty/ledger"
	"github.com/google/go-cmp/cmp"
)

const (
	goodPeriod   = `{"kind":"period","turn":1,"toolCallId":"c1","toolName":"backup_runs","iteration":1,"verdict":"not-held"}`
	goodArgument = `{"kind":"argument","turn":1,"toolCallId":"c2","toolName":"search_logs","iteration":1,"argument":"window","rule":"assume","period":true,"source":"default","value":"2h"}`
)

func TestDoorAdmits(t *testing.T) {
	data := `[` + goodPeriod + `,` + goodArgument + `,{"kind":"period","turn":2,"toolCallId":"c1","toolName":"backup_runs","iteration":1,"verdict":"covered","argument":"window"}]`
	rows, err := StandardDoor().Admit(json.RawMessage(data))
	if err != nil {
		t.Fatal(err)
	}
	back, err := json.Marshal(rows)
	if err != nil {
		t.Fatal(err)
	}
	if string(back) != data {
		t.Errorf("round trip:\n got %s\nwant %s", back, data)
	}
	for _, empty := range []string{"", "null", "[]"} {
		rows, err := StandardDoor().Admit(json.RawMessage(empty))
		if err != nil || len(rows) != 0 {
			t.Errorf("Admit(%q) = %v, %v; want no rows", empty, rows, err)
		}
	}
}

func TestDoorRefusesNamingTheRow(t *testing.T) {
	tests := []struct {
		name   string
		row    string
		kind   string
		reason string // a piece of the reason
	}{
		{"forged verdict", `{"kind":"period","turn":1,"toolCallId":"c1","toolName":"t","iteration":1,"verdict":"stale"}`, "period", "verdict of covered"},
		{"turn as text", `{"kind":"period","turn":"1","toolCallId":"c1","toolName":"t","iteration":1,"verdict":"covered"}`, "period", "whole-number turn"},
		{"fractional iteration", `{"kind":"period","turn":1,"toolCallId":"c1","toolName":"t","iteration":1.5,"verdict":"covered"}`, "period", "fraction"},
		{"empty argument", `{"kind":"period","turn":1,"toolCallId":"c1","toolName":"t","iteration":1,"verdict":"covered","argument":""}`, "period", "non-empty"},
		{"missing toolName", `{"kind":"period","turn":1,"toolCallId":"c1","iteration":1,"verdict":"covered"}`, "period", "toolName"},
		{"unknown kind", `{"kind":"clock","turn":1}`, "clock", "admits argument, period"},
		{"no kind", `{"turn":1}`, "", "files no rows of that kind"},
		{"not an object", `"period"`, "", "JSON object"},
		{"argument with both source and asked", `{"kind":"argument","turn":1,"toolCallId":"c","toolName":"t","iteration":1,"argument":"w","rule":"ask","source":"default","asked":"missing"}`, "argument", "both"},
		{"argument with unknown source", `{"kind":"argument","turn":1,"toolCallId":"c","toolName":"t","iteration":1,"argument":"w","rule":"assume","source":"guess"}`, "argument", "source"},
		{"argument period false", `{"kind":"argument","turn":1,"toolCallId":"c","toolName":"t","iteration":1,"argument":"w","rule":"assume","source":"default","period":false}`, "argument", "period"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := `[` + goodPeriod + `,` + goodArgument + `,` + tt.row + `]`
			rows, err := StandardDoor().Admit(json.RawMessage(data))
			if rows != nil {
				t.Errorf("refused ledger restored %d rows", len(rows))
			}
			var re *ledger.RowError
			if !errors.As(err, &re) {
				t.Fatalf("err = %v, want *ledger.RowError", err)
			}
			if re.Index != 2 || re.Kind != tt.kind {
				t.Errorf("refused row %d kind %q, want row 2 kind %q", re.Index, re.Kind, tt.kind)
			}
			if !strings.Contains(re.Reason, tt.reason) || !strings.Contains(err.Error(), "row 2") {
				t.Errorf("error %q does not name row 2 and %q", err, tt.reason)
			}
		})
	}
	if _, err := StandardDoor().Admit(json.RawMessage(`{"kind":"period"}`)); err == nil || !strings.Contains(err.Error(), "list") {
		t.Errorf("a ledger that is not a list: err = %v", err)
	}
}

func TestDoorWith(t *testing.T) {
	d := StandardDoor().With("clock", func(m map[string]any) string {
		if _, ok := m["now"].(string); !ok {
			return "a clock row needs now"
		}
		return ""
	})
	rows, err := d.Admit(json.RawMessage(`[{"kind":"clock","turn":1,"now":"2026-09-26T10:00:00Z"}]`))
	if err != nil || len(rows) != 1 || rows[0].Kind() != "clock" {
		t.Fatalf("Admit with clock = %v, %v", rows, err)
	}
	if _, err := d.Admit(json.RawMessage(`[{"kind":"clock","turn":1}]`)); err == nil {
		t.Error("a clock row without now was admitted")
	}
	if got := StandardDoor().Kinds(); !cmp.Equal(got, []string{"argument", "period"}) {
		t.Errorf("StandardDoor gained a kind: %v", got)
	}
}

func TestReadersSkipUnknownAndNeverCollapse(t *testing.T) {
	var rows []ledger.Row
	data := `[` + goodPeriod + `,{"kind":"clock","turn":1,"now":"x"},` + goodArgument + `,` +
		`{"kind":"period","turn":1,"toolCallId":"c1","toolName":"backup_runs","iteration":2,"verdict":"covered"},` +
		`{"kind":"argument","turn":1,"toolCallId":"c2","toolName":"search_logs","iteration":1,"argument":"window","rule":"assume","source":"model","value":"1h"},` +
		`{"kind":"period","turn":2,"toolCallId":"c1","toolName":"backup_runs","iteration":1,"verdict":"unknown"}]`
	if err := json.Unmarshal([]byte(data), &rows); err != nil {
		t.Fatal(err)
	}
	periods := ledger.PeriodRows(rows)
	var got []string
	for _, p := range periods {
		got = append(got, p.ToolCallID+"/"+string(p.Verdict))
	}
	if diff := cmp.Diff([]string{"c1/not-held", "c1/covered", "c1/unknown"}, got); diff != "" {
		t.Errorf("PeriodRows (-want +got):\n%s", diff)
	}
	if n := len(ledger.OfTurn(rows, 1)); n != 5 {
		t.Errorf("OfTurn(1) has %d rows, want 5 (the clock row carries turn 1)", n)
	}
	cur := ledger.CurrentArguments(rows)
	if len(cur) != 1 || cur[0].Source != "model" {
		t.Errorf("CurrentArguments = %+v, want the later model row only", cur)
	}
	if b, _ := json.Marshal(rows[1]); string(b) != `{"kind":"clock","turn":1,"now":"x"}` {
		t.Errorf("unknown kind not kept verbatim: %s", b)
	}
}

func TestAppendRowsIsFresh(t *testing.T) {
	prev := make([]ledger.Row, 1, 4)
	prev[0] = ledger.FromPeriod(boundary.PeriodRow{ToolCallID: "a", Verdict: "covered"})
	added := []ledger.Row{ledger.FromPeriod(boundary.PeriodRow{ToolCallID: "b", Verdict: "not-held"})}
	out := appendRows(prev, added)
	if len(out) != 2 || &out[0] == &prev[0] {
		t.Fatalf("appendRows did not make a fresh slice")
	}
	if again := appendRows(prev, nil); len(again) != 1 {
		t.Error("an empty write changed the ledger")
	}
	if p, _ := out[0].Period(); p.Kind != "period" {
		t.Errorf("FromPeriod left kind %q", p.Kind)
	}
}

func TestUnmarshalRefusesNonObject(t *testing.T) {
	var r ledger.Row
	for _, in := range []string{`[]`, `3`, `"x"`, `{"kind":"period","turn":"one"}`} {
		if err := json.Unmarshal([]byte(in), &r); err == nil {
			t.Errorf("Unmarshal(%s) accepted", in)
		}
	}
}

func FuzzAdmit(f *testing.F) {
	f.Add([]byte(`[` + goodPeriod + `,` + goodArgument + `]`))
	f.Add([]byte(`[{"kind":"period","turn":1e400}]`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, err := StandardDoor().Admit(data)
		if err != nil {
			return
		}
		// Whatever the door admits encodes and is admitted again to the same rows.
		back, err := json.Marshal(rows)
		if err != nil {
			t.Fatalf("admitted rows do not encode: %v", err)
		}
		again, err := StandardDoor().Admit(back)
		if err != nil || len(again) != len(rows) {
			t.Fatalf("re-admit of %s: %v", back, err)
		}
	})
}

func TestTimeCheckNames(t *testing.T) {
	r := boundary.PeriodRow{Differs: &boundary.PeriodDiffers{}, Shifted: &boundary.PeriodShift{ByMs: 90000}, BeyondRetention: true, PartlyBeyondRetention: true}
	want := []string{"period-differs-from-asked", "period-shifted", "period-beyond-retention", "partly-beyond-retention"}
	if diff := cmp.Diff(want, timeCheckNames(r)); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
	if got := PeriodPayload(boundary.PeriodRow{Verdict: "covered"}); got.TimeChecks != nil {
		t.Errorf("a row without checks listed %v", got.TimeChecks)
	}
}
