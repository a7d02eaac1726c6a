package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestComposedScenarioEndToEnd: the built-in triage-lead composition through the CLI. The
// log agent's store holds none of the hour asked, so the lead's answer is not sure, its
// reason names the log agent's run and ledger row, and the limits block carries the log
// agent's limits under its name.
func TestComposedScenarioEndToEnd(t *testing.T) {
	out, errText, code := runCLI(t, "", "scenario", "run", "../../scenario/examples/triage-lead.json")
	if code != 0 || errText != "" {
		t.Fatalf("exit %d, stderr %s\n%s", code, errText, out)
	}
	out = normalise(out)
	for _, want := range []string{
		"Answer: Checkout likely broke with deploy v412",
		`From agent "logs" (agent:logs#1):`,
		"- search_logs queried 2026-09-26T09:00:00Z to 2026-09-26T10:00:00Z; the store holds",
		"Standing: not-sure (period-not-held)",
		"  logs: not-sure (node agent:logs#1, run run-ID/agent:logs#1)",
		"  deploys: consistent (node agent:deploys#2, run run-ID/agent:deploys#2)",
		"  reason period-not-held from agent logs (node agent:logs#1, run run-ID/agent:logs#1): witness findingsLedger/0/verdict",
		"input seed#0 agent:logs#1 agent:deploys#2 agent:ask.merge#3 answer#4",
		"Expectations: all met",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q\n%s", want, out)
		}
	}

	js, errText, code := runCLI(t, "", "scenario", "run", "--json", "../../scenario/examples/triage-lead.json")
	if code != 0 || errText != "" {
		t.Fatalf("--json: exit %d, stderr %s", code, errText)
	}
	var top struct {
		Standing struct {
			Standing string `json:"standing"`
		} `json:"standing"`
		RollUp struct {
			Standing string `json:"standing"`
			Reasons  []struct {
				Reason  string `json:"reason"`
				Agent   string `json:"agent"`
				Node    string `json:"node"`
				Witness []struct {
					Key  string `json:"key"`
					Path string `json:"path"`
				} `json:"witness"`
			} `json:"reasons"`
		} `json:"rollUp"`
		Limits string `json:"limits"`
		Record struct {
			Subflows map[string]struct {
				Commits []struct {
					RuntimeStageID string `json:"runtimeStageId"`
				} `json:"commits"`
			} `json:"subflows"`
		} `json:"record"`
	}
	if err := json.Unmarshal([]byte(js), &top); err != nil {
		t.Fatal(err)
	}
	if top.Standing.Standing != "not-sure" || top.RollUp.Standing != "not-sure" || len(top.RollUp.Reasons) != 1 {
		t.Fatalf("standing %+v, roll-up %+v", top.Standing, top.RollUp)
	}
	r := top.RollUp.Reasons[0]
	if r.Reason != "period-not-held" || r.Agent != "logs" || r.Node != "agent:logs#1" || len(r.Witness) != 1 || r.Witness[0].Key != "findingsLedger" {
		t.Errorf("reason = %+v", r)
	}
	// The witness's node holds the inner run in the one record.
	if sub, ok := top.Record.Subflows[r.Node]; !ok || len(sub.Commits) == 0 {
		t.Errorf("the record keeps no inner run under %s (subflows %d)", r.Node, len(top.Record.Subflows))
	}
	if !strings.Contains(top.Limits, `From agent "logs"`) {
		t.Errorf("limits = %q", top.Limits)
	}
}
