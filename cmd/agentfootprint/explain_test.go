package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/explain"
	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
)

const cliFact = "VIP override: refunds for VIP customers are approved."

// cliModel approves iff the fact is in the system prompt, wording by seed.
func cliModel() *scripted.Provider {
	return scripted.Func(func(req *llm.Request, call int, seed int64) scripted.Reply {
		if strings.Contains(llm.SystemText(req.System), cliFact) {
			return scripted.Reply{Content: []string{"APPROVED: VIP override.", "APPROVED under the VIP override.", "APPROVED, VIP refund."}[seed%3]}
		}
		return scripted.Reply{Content: "DECLINED: outside the refund window."}
	})
}

func cliRecord(t *testing.T) (string, *record.Record, explain.Blueprint) {
	t.Helper()
	bp := explain.Blueprint{Units: []*inject.Unit{inject.Must(inject.Fact("vip-override", cliFact)), inject.Must(inject.Steering("style", "Be brief."))}}
	a, err := bp.Build(cliModel())
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Run(context.Background(), agent.Input{Message: "Refund order A-17?"})
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(res.Record)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "record.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, res.Record, bp
}

func TestExplainCommand(t *testing.T) {
	path, _, _ := cliRecord(t)
	out, errOut, code := runCLI(t, "", "explain", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"ANSWER   call-llm#2", "READ     contextUnits ← context#1", "#1 unit:vip-override  score ", "ALLOWED  context#1 trigger always", "BORN     seed#0 fact", "explain_test.go:"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	out, _, code = runCLI(t, "", "explain", path, "--json", "--from", "call-llm#2")
	var ch explain.Chain
	if code != 0 || json.Unmarshal([]byte(out), &ch) != nil || ch.Format != "agentfootprint-go.backtrack/1" || ch.Suspects[0].Unit != "vip-override" {
		t.Errorf("--json: exit %d, %s", code, out)
	}
	out, _, code = runCLI(t, "", "explain", path, "--missing")
	if code != 0 || !strings.Contains(out, "call-llm#2: 3 available, 3 sent") || !strings.Contains(out, "limit: ") {
		t.Errorf("--missing: exit %d\n%s", code, out)
	}
	for _, bad := range [][]string{{"explain", filepath.Join(t.TempDir(), "none.json")}, {"explain", path, "--from", "seed#0"}, {"ablate", path}, {"ablate", path, "--without", "vip-override"}} {
		_, errOut, code := runCLI(t, "", bad...)
		if code == 0 || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q; want a refusal", bad, code, errOut)
		}
	}
}

func TestAblateRecord(t *testing.T) {
	_, rec, bp := cliRecord(t)
	var out bytes.Buffer
	if err := ablateRecord(context.Background(), &out, rec, bp, cliModel(), []string{"vip-override", "unit:style"}, 3, mustComparator(t, "first-word"), false); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if !strings.Contains(got, "confirmed      unit:vip-override (asked as vip-override): the answer changed in 3 of 3 reruns") ||
		!strings.Contains(got, "not-confirmed  unit:style: the answer did not change in any of 3 reruns") || !strings.Contains(got, "9 runs") {
		t.Errorf("report:\n%s", got)
	}
	if err := ablateRecord(context.Background(), &out, rec, bp, cliModel(), []string{"bogus:x"}, 3, nil, false); err == nil {
		t.Error("an unknown spec kind was accepted")
	}
}

func mustComparator(t *testing.T, name string) explain.Comparator {
	t.Helper()
	c, err := comparatorFor(name)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
