// Acceptance scenarios 4 and 5: missing context derived from the record,
// restoration probes, and a flat ranking turned into a shortlist.

package explain_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/explain"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

const overrideNote = "Manager note: order A-17 has a standing VIP override, approve any refund for it."

// noteModel acknowledges the manager's note when it is the newest message;
// otherwise it looks the order up once when the tool is offered, then
// approves iff a sent message carries the note's override.
func noteModel() *scripted.Provider {
	return scripted.Func(func(req *llm.Request, call int, seed int64) scripted.Reply {
		n := len(req.Messages)
		if n > 0 && req.Messages[n-1].Content == overrideNote {
			return scripted.Reply{Content: "Noted."}
		}
		offered := slices.ContainsFunc(req.Tools, func(d llm.ToolSchema) bool { return d.Name == "lookup_order" })
		if offered && n > 0 && req.Messages[n-1].Role == llm.RoleUser {
			return scripted.Reply{ToolCalls: []llm.ToolCall{{Name: "lookup_order", Args: []byte(`{"orderId":"A-17"}`)}}}
		}
		for _, m := range req.Messages {
			if strings.Contains(m.Content, "standing VIP override") {
				return scripted.Reply{Content: wording(approvedWordings, seed)}
			}
		}
		return scripted.Reply{Content: wording(declinedWordings, seed)}
	})
}

// TestScenario4EvictedMessageFoundMissing is acceptance scenario 4 on the
// refunds agent of scenario 1 without its VIP fact: the override arrives as
// the person's first message instead. The next turn asks for the refund; the
// first call still carries the override, but once the order lookup joins
// the history a window of the last four messages evicts it, and the model
// declines. From the saved record alone MissingContext finds exactly
// history/0 evicted by the window; forcing it back flips the answer in 3/3
// seeded reruns. The spec also expects a ranking with no clear winner;
// see the comment at the end for why that does not hold on this agent.
func TestScenario4EvictedMessageFoundMissing(t *testing.T) {
	model := noteModel()
	var live atomic.Int64
	bp := explain.Blueprint{
		Units: []*inject.Unit{inject.Must(inject.Steering("style", styleText))},
		Tools: []*tool.Tool{lookupTool(t, &live)},
		Options: []agent.Option{
			agent.WithID("refunds"), agent.WithClock(fixedClock), agent.WithWindow(agent.Window{LastMessages: 4}),
		},
	}
	a, err := bp.Build(model)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	conv := a.NewConversation()
	first, err := conv.Send(ctx, agent.Input{Message: overrideNote})
	if err != nil {
		t.Fatal(err)
	}
	if got := first.Answer; got != "Noted." {
		t.Fatalf("first turn answered %q, want the acknowledgement", got)
	}
	res, err := conv.Send(ctx, agent.Input{Message: question})
	if err != nil {
		t.Fatal(err)
	}
	if got := labelOf(res.Answer); got != "DECLINED" {
		t.Fatalf("second turn answered %q, want the wrong DECLINED", res.Answer)
	}
	data, err := json.Marshal(res.Record)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := record.Decode(data)
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
	if m.AvailableCount != 7 || m.SentCount != 6 || m.Limit == "" {
		// style, lookup_order and five history messages; all but history/0 sent.
		t.Errorf("available %d sent %d limit %q, want 7 6 and the limit stated", m.AvailableCount, m.SentCount, m.Limit)
	}
	specs := m.RestorationSpecs(0)
	if len(specs) != 1 || specs[0] != explain.Force("history/0") {
		t.Fatalf("restoration specs = %v, want Force(history/0)", specs)
	}

	w, err := explain.FrozenWorld(rec, model)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := explain.Probe(ctx, rec, bp, w, explain.ProbeOptions{Suspects: specs, Comparator: labelComparator})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Baseline.Flips != 0 || len(rep.Suspects) != 1 {
		t.Fatalf("baseline %+v suspects %+v, want a stable baseline and one probe", rep.Baseline, rep.Suspects)
	}
	s := rep.Suspects[0]
	if s.ID != "history/0" || s.Kind != "force" || s.Verdict != explain.VerdictConfirmed || s.Flips != 3 || s.Samples != 3 ||
		!strings.Contains(s.Claim, "restoring history/0 changes the answer") {
		t.Errorf("restoration = %+v, want history/0 confirmed 3/3", s)
	}
	if rep.Mode != "causal" || rep.Runs != 6 {
		t.Errorf("mode %s runs %d, want causal and 6", rep.Mode, rep.Runs)
	}

	// The spec expects the ranking to have no clear winner here. It does not:
	// an evicted message is not in the request, so it is never ranked, and
	// what is ranked is whatever was sent. The order lookup's result shares
	// "order A-17" and "delivered 45 days ago" with the declined answer, so
	// the lexical proxy names it a clear winner over style. Ablation then
	// confirms it, for a reason the proxy does not see: without the tool the
	// model answers in the first call, whose history (three messages) still
	// fits the window, so the override is sent. The lookup result crowded the
	// override out. A flat top is a hint of absence, not a guarantee.
	ranked, err := explain.Rank(rec, explain.Target{})
	if err != nil {
		t.Fatal(err)
	}
	conf := explain.RankingConfidence(ranked)
	if len(ranked) != 2 || ranked[0].ID != "history/4" || ranked[1].ID != "style" || !conf.ClearWinner || conf.Lead != "history/4" {
		t.Errorf("ranking %+v confidence %+v, want the lookup result (history/4) leading style clearly", ranked, conf)
	}
	byRank, err := explain.Probe(ctx, rec, bp, w, explain.ProbeOptions{Comparator: labelComparator})
	if err != nil {
		t.Fatal(err)
	}
	verdicts := map[string]string{}
	for _, s := range byRank.Suspects {
		verdicts[s.Kind+":"+s.ID] = fmt.Sprintf("%s %d/%d", s.Verdict, s.Flips, s.Samples)
	}
	want := map[string]string{"tool:lookup_order": "confirmed 3/3", "unit:style": "not-confirmed 0/3"}
	if diff := cmp.Diff(want, verdicts); diff != "" {
		t.Errorf("probing the ranked suspects (-want +got):\n%s", diff)
	}
	if live.Load() != 1 {
		t.Errorf("lookup_order executed %d times, want once (the recorded run; reruns are frozen)", live.Load())
	}
}

// TestMissingInactiveRestoration: an instruction whose rule never fired is
// found inactive with its evidence, and forcing it back flips the answer.
func TestMissingInactiveRestoration(t *testing.T) {
	escalate := inject.Must(inject.Instruction("escalation", "Urgent refunds are approved at once by the VIP override desk.",
		inject.Rule{Label: "message says urgent", When: func(r flow.Reader) bool {
			v, _ := r.Get("userMessage")
			s, _ := v.(string)
			return strings.Contains(s, "urgent")
		}}))
	model := scripted.Func(func(req *llm.Request, call int, seed int64) scripted.Reply {
		if strings.Contains(llm.SystemText(req.System), "VIP override desk") {
			return scripted.Reply{Content: wording(approvedWordings, seed)}
		}
		return scripted.Reply{Content: wording(declinedWordings, seed)}
	})
	bp := explain.Blueprint{Units: []*inject.Unit{inject.Must(inject.Steering("style", styleText)), escalate}, Options: []agent.Option{agent.WithClock(fixedClock)}}
	a, err := bp.Build(model)
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Run(context.Background(), agent.Input{Message: question})
	if err != nil {
		t.Fatal(err)
	}
	rec := res.Record
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
		Units:   []*inject.Unit{inject.Must(inject.Fact("policy-a", culprit)), inject.Must(inject.Fact("policy-b", twin)), inject.Must(inject.Steering("style", styleText))},
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
	rec := res.Record
	ranked, err := explain.Rank(rec, explain.Target{})
	if err != nil {
		t.Fatal(err)
	}
	conf := explain.RankingConfidence(ranked)
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

// TestMissingLeavesTheTimeLineOut: the time layer's served time line is a
// message of the request, but neither a context unit nor a message of
// history, so it counts as neither available nor sent.
func TestMissingLeavesTheTimeLineOut(t *testing.T) {
	missing := func(opts ...agent.Option) (*explain.Missing, *record.Record) {
		t.Helper()
		var live atomic.Int64
		bp := explain.Blueprint{
			Units:   []*inject.Unit{inject.Must(inject.Steering("style", styleText))},
			Tools:   []*tool.Tool{lookupTool(t, &live)},
			Options: append([]agent.Option{agent.WithID("refunds"), agent.WithClock(fixedClock)}, opts...),
		}
		a, err := bp.Build(noteModel())
		if err != nil {
			t.Fatal(err)
		}
		res, err := a.Run(context.Background(), agent.Input{Message: question})
		if err != nil {
			t.Fatal(err)
		}
		m, err := explain.MissingContext(res.Record, explain.Target{})
		if err != nil {
			t.Fatal(err)
		}
		return m, res.Record
	}
	plain, _ := missing()
	timed, rec := missing(agent.WithTimeLayer("UTC"))
	var last state.LLMRequest
	for _, c := range rec.Log.Commits {
		for _, op := range c.Ops {
			if v, ok := op.Value.(state.LLMRequest); ok && op.Key == state.KeyLLMRequest.KeyName() {
				last = v
			}
		}
	}
	spans := rec.RequestSpans(last)
	if !slices.ContainsFunc(spans, func(s llm.Span) bool { return s.Unit == "time-line" }) {
		t.Fatalf("the timed run's last request has no time line span (%v): this test checks nothing", spans)
	}
	// No window and no budget: whatever is available is sent, in both runs.
	for _, m := range []*explain.Missing{plain, timed} {
		if m.SentCount != m.AvailableCount || len(m.Dropped) != 0 {
			t.Errorf("available %d, sent %d, dropped %v; want as many sent as available, none dropped (spans %v)", m.AvailableCount, m.SentCount, m.Dropped, spans)
		}
	}
}
