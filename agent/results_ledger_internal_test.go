// Tests for encodeLedger: byte for byte what json.Marshal writes.

package agent

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	"github.com/agentfootprint/agentfootprint-go/honesty/ledger"
)

// ledgerSeeds are checkpoint ledgers as a person or another implementation
// may write them: spaced, with characters json.Marshal escapes, with kinds
// the ledger keeps verbatim.
var ledgerSeeds = []string{
	`[{"kind":"period","turn":1,"toolCallId":"c1","toolName":"backup_runs","iteration":1,"verdict":"not-held"}]`,
	`[ {"kind": "clock", "turn": 1, "note": "a < b & c > d"} ,{"kind":"call","x":[1, 2]}]`,
	"[{\"kind\":\"clock\",\"s\":\"line\u2028sep\u2029\"}]",
	`[{"kind":"clock","s":"tab\tand \"quote\" \\ <"}]`,
	`[{"kind":"argument","turn":2,"toolCallId":"c2","argument":"window","source":"model"},{"kind":"other","v":null}]`,
	"[{\"kind\":\"x\",\n\"v\":\"\\u003c\"}]",
}

func TestEncodeLedgerMatchesMarshal(t *testing.T) {
	rows := []ledger.Row{
		ledger.FromPeriod(boundary.PeriodRow{Kind: "period", Turn: 1, ToolCallID: "c<1>", ToolName: "a&b", Iteration: 2, Verdict: "covered"}),
		{},
	}
	checkEncodeLedger(t, rows)
	for _, s := range ledgerSeeds {
		var rows []ledger.Row
		if err := json.Unmarshal([]byte(s), &rows); err != nil {
			t.Fatalf("seed %s: %v", s, err)
		}
		checkEncodeLedger(t, rows)
	}
}

func checkEncodeLedger(t *testing.T, rows []ledger.Row) {
	t.Helper()
	want, wantErr := json.Marshal(rows)
	got, err := encodeLedger(rows)
	if (err != nil) != (wantErr != nil) || !bytes.Equal(got, want) {
		t.Fatalf("encodeLedger = %s (%v), json.Marshal = %s (%v)", got, err, want, wantErr)
	}
}

func TestCompactEscaped(t *testing.T) {
	for s, want := range map[string]bool{
		`{"a":"b c"}`:        true,
		`{"a": "b"}`:         false,
		`{"a":"\"<"}`:        false,
		`{"a":"\\","b":1}`:   true,
		"{\"a\":\"\u2028\"}": false,
		`{"a":"\u2028"}`:     true,
		"[1,\n2]":            false,
		`null`:               true,
	} {
		if got := compactEscaped([]byte(s)); got != want {
			t.Errorf("compactEscaped(%q) = %v, want %v", s, got, want)
		}
	}
}

// FuzzEncodeLedger checks encodeLedger against json.Marshal on every ledger
// a checkpoint could carry.
func FuzzEncodeLedger(f *testing.F) {
	for _, s := range ledgerSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var rows []ledger.Row
		if json.Unmarshal([]byte(s), &rows) != nil || len(rows) == 0 {
			return
		}
		checkEncodeLedger(t, rows)
	})
}
