// Acceptance scenarios 4 and 5: missing context derived from the record,
// restoration probes, and a flat ranking turned into a shortlist.

package explain_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/explain"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

const overrideNote = "Manager note: order A-17 has a standing VIP override, approve any refund for it."

// noteModel approves iff a sent message carries the manager's override.
func noteModel() *scripted.Provider {
	return scripted.Func(func(req *llm.Request, call int, seed int64) scripted.Reply {
		for _, m := range req.Messages {
			if strings.Contains(m.Content, "standing VIP override") {
				return scripted.Reply{Content: wording(approvedWordings, seed)}
			}
		}
		return scripted.Reply{Content: wording(declinedWordings, seed)}
	})
}

// TestScenario4EvictedMessageFoundMissing: the agent has no window strategy
// yet (agent.WithWindow does not exist), so the eviction is planted in the
// record exactly as a window strategy records it — the message index under
// history.evicted with reason window, and no span in the request — and
// MissingContext must find it from the record alone.
func TestScenario4EvictedMessageFoundMissing(t *testing.T) {
	a, err := agent.New(noteModel(), agent.WithClock(fixedClock))
	if err != nil {
		t.Fatal(err)
	}
	prior := &agent.Conversation{Version: agent.ConversationVersion, RunID: "earlier", CheckpointedAt: fixedClock().Format("2006-01-02T15:04:05Z07:00"),
		History: []llm.Message{{Role: llm.RoleUser, Content: overrideNote}, {Role: llm.RoleAssistant, Content: "Noted."}}}
	res, err := a.Run(context.Background(), agent.Input{Message: question, ContinueFrom: prior})
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(res.Record())
	if err != nil {
		t.Fatal(err)
	}
	rec, err := explain.Decode(plantEviction(t, data, 0))
	if err != nil {
		t.Fatal(err)
	}
	m, err := explain.MissingContext(rec, explain.Target{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Dropped) != 1 || m.Dropped[0].ID != "history/0" || m.Dropped[0].Reason != "window" || m.Dropped[0].Text != overrideNote {
		t.Fatalf("dropped = %+v, want exactly history/0 evicted by the window", m.Dropped)
	}
	if m.AvailableCount != 3 || m.SentCount != 2 || m.Limit == "" {
		t.Errorf("available %d sent %d limit %q, want 3 2 and the limit stated", m.AvailableCount, m.SentCount, m.Limit)
	}
	if got := m.RestorationSpecs(0); len(got) != 1 || got[0] != explain.Force("history/0") {
		t.Errorf("restoration specs = %v", got)
	}
	// Restoring a message needs a window strategy in the rerun.
	if _, err := explain.Ablate(explain.Blueprint{}, m.RestorationSpecs(0)...); err != explain.ErrNoWindow {
		t.Errorf("Ablate(Force(history/0)) err = %v, want ErrNoWindow", err)
	}
}

// plantEviction rewrites a record's JSON as if a window strategy had left
// history message idx out of every request.
func plantEviction(t *testing.T, data []byte, idx int) []byte {
	t.Helper()
	var rec map[string]any
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	for _, c := range rec["commits"].([]any) {
		for _, o := range c.(map[string]any)["ops"].([]any) {
			op := o.(map[string]any)
			switch op["key"] {
			case "contextUnits":
				h := op["value"].(map[string]any)["history"].(map[string]any)
				sent := []any{}
				for _, s := range h["sent"].([]any) {
					if int(s.(float64)) != idx {
						sent = append(sent, s)
					}
				}
				h["sent"] = sent
				h["evicted"] = []any{map[string]any{"index": idx, "reason": "window"}}
			case "llmRequest":
				v := op["value"].(map[string]any)
				spans := []any{}
				for _, s := range v["spans"].([]any) {
					if s.(map[string]any)["unit"] != "history/0" {
						spans = append(spans, s)
					}
				}
				v["spans"] = spans
			}
		}
	}
	out, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestMissingInactiveRestoration: an instruction whose rule never fired is
// found inactive with its evidence, and forcing it back flips the answer.
func TestMissingInactiveRestoration(t *testing.T) {
	escalate := inject.Instruction("escalation", "Urgent refunds are approved at once by the VIP override desk.",
		inject.Rule{Label: "message says urgent", When: func(r flow.Reader) bool {
			v, _ := r.Get("userMessage")
			s, _ := v.(string)
			return strings.Contains(s, "urgent")
		}})
	model := scripted.Func(func(req *llm.Request, call int, seed int64) scripted.Reply {
		if strings.Contains(llm.SystemText(req.System), "VIP override desk") {
			return scripted.Reply{Content: wording(approvedWordings, seed)}
		}
		return scripted.Reply{Content: wording(declinedWordings, seed)}
	})
	bp := explain.Blueprint{Units: []*inject.Unit{inject.Steering("style", styleText), escalate}, Options: []agent.Option{agent.WithClock(fixedClock)}}
	a, err := bp.Build(model)
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Run(context.Background(), agent.Input{Message: question})
	if err != nil {
		t.Fatal(err)
	}
	rec := res.Record()
	m, err := explain.MissingContext(rec, explain.Target{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Dropped) != 0 || len(m.Inactive) != 1 {
		t.Fatalf("missing = %+v", m)
	}
	in := m.Inactive[0]
	if in.ID != "escalation" || in.Kind != "instruction" || in.Trigger.Matched == nil || *in.Trigger.Matched ||
		len(in.Trigger.Reads) != 1 || in.Trigger.Reads[0].Key != "userMessage" {
		t.Errorf("inactive = %+v, want escalation not matched after reading userMessage", in)
	}
	w, err := explain.FrozenWorld(rec, model)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := explain.Probe(context.Background(), rec, bp, w, explain.ProbeOptions{Suspects: m.RestorationSpecs(0), Comparator: labelComparator})
	if err != nil {
		t.Fatal(err)
	}
	s := rep.Suspects[0]
	if s.Kind != "force" || s.Verdict != explain.VerdictConfirmed || s.Flips != 3 || !strings.Contains(s.Claim, "restoring escalation changes the answer") {
		t.Errorf("restoration = %+v", s)
	}
}

func TestScenario5FlatRankingShortlist(t *testing.T) {
	// Two facts with the same words; only the first one's exact sentence
	// decides the answer.
	const culprit = "VIP override: refunds for VIP customers are approved regardless of the refund window."
	const twin = "VIP override: refunds for VIP customers are not approved regardless of the refund window."
	model := scripted.Func(func(req *llm.Request, call int, seed int64) scripted.Reply {
		if strings.Contains(llm.SystemText(req.System), culprit) {
			return scripted.Reply{Content: wording(approvedWordings, seed)}
		}
		return scripted.Reply{Content: wording(declinedWordings, seed)}
	})
	var n atomic.Int64
	bp := explain.Blueprint{
		Units:   []*inject.Unit{inject.Fact("policy-a", culprit), inject.Fact("policy-b", twin), inject.Steering("style", styleText)},
		Tools:   []*tool.Tool{lookupTool(t, &n)},
		Options: []agent.Option{agent.WithClock(fixedClock)},
	}
	a, err := bp.Build(model)
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Run(context.Background(), agent.Input{Message: question})
	if err != nil {
		t.Fatal(err)
	}
	rec := res.Record()
	ranked, err := explain.Rank(rec, explain.Target{})
	if err != nil {
		t.Fatal(err)
	}
	conf := explain.RankingConfidence(ranked, nil)
	if conf.ClearWinner || !slices.Contains(conf.Shortlist, "policy-a") || !slices.Contains(conf.Shortlist, "policy-b") {
		t.Fatalf("confidence = %+v, want no clear winner with both policies shortlisted", conf)
	}
	w, err := explain.FrozenWorld(rec, model)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := explain.Probe(context.Background(), rec, bp, w, explain.ProbeOptions{Comparator: labelComparator})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Ranking == nil || rep.Ranking.ClearWinner || !strings.Contains(rep.Ranking.Reason, "cannot separate") {
		t.Errorf("report ranking = %+v, want the proxy's limit stated", rep.Ranking)
	}
	verdicts := map[string]string{}
	for _, s := range rep.Suspects {
		verdicts[s.ID] = s.Verdict
	}
	if verdicts["policy-a"] != explain.VerdictConfirmed || verdicts["policy-b"] != explain.VerdictNotConfirmed {
		t.Errorf("verdicts = %v, want only policy-a confirmed", verdicts)
	}
	if rep.Suspects[0].ID != "policy-a" && rep.Suspects[0].ID != "policy-b" {
		t.Errorf("the shortlist was not probed first: %v", rep.Suspects[0].ID)
	}
}
