// The backtrack pane: the suspects of explain.Backtrack in the order of
// explain.Rank, each with its custody chain, and the rewind of the exact
// request they were sent in.

package lens

import (
	"fmt"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/explain"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"slices"
	"strconv"
	"strings"
)

// openSuspects is how many suspect cards are unfolded, and how many suspects'
// spans the rewind prints in full however long they are.
const openSuspects = 3

// cardSuspects is how many suspects get a card with their custody chain; the
// rest are listed one line each.
const cardSuspects = 10

// backtrackView is the backtrack pane.
type backtrackView struct {
	Note       string // why there is no chain, or where it starts
	AnswerStep string
	AnswerLink string
	Via        string
	Reads      []string
	Suspects   []suspectView
	Cards      []suspectView // the first cardSuspects, with their chains
	Others     []suspectView // the rest, one line each
	Ranking    string
	Flags      []string
	Rewind     *rewindView
	Ablation   *ablationView
}

// suspectView is one suspect and its custody chain.
type suspectView struct {
	Rank   int
	Anchor string
	Unit   string
	Kind   string
	Score  string
	Open   bool
	Link   string // where the suspect's text shows elsewhere on the page
	// BORN
	BornStep, BornHash, Site, Function string
	// ALLOWED
	AllowedStep, Trigger, Asked string
	TriggerReads                []string
	// LANDED
	LandedStep, Slot, Span, SpanAnchor string
	Position                           int
	// READ
	Read string
	// ANSWER
	Answer  string
	Verdict *ablationSuspect
}

// backtrackOf computes the chain and ranking; a run without a final answer
// is walked back from its last model call.
func backtrackOf(rec *record.Record, steps []step, storyAnchors map[string]string, unitAnchors map[string]string, rep *explain.Report) backtrackView {
	var v backtrackView
	target := explain.Target{}
	hasFinal := slices.ContainsFunc(steps, func(s step) bool { return s.Final })
	if !hasFinal {
		last := ""
		for _, s := range steps {
			if s.Error == "" && !strings.HasPrefix(s.Stage, stageWrapUp) {
				last = s.Stage
			}
		}
		if last == "" {
			v.Note = "The run made no model call that returned, so there is nothing to walk back."
			return v
		}
		target.Step = last
		v.Note = "The run has no final answer; the backtrack starts at its last model call that returned, " + last + "."
	}
	ch, err := explain.Backtrack(rec, target)
	if err != nil {
		v.Note = "The backtrack could not be computed: " + err.Error()
		return v
	}
	ranked, err := explain.Rank(rec, target)
	if err != nil {
		v.Note = "The suspects could not be ranked: " + err.Error()
		return v
	}
	scores := map[string]float64{}
	for _, r := range ranked {
		scores[r.ID] = r.Score
	}
	v.Ranking = explain.RankingConfidence(ranked).Reason
	v.AnswerStep, v.Via, v.Flags = ch.Answer.Step, ch.Answer.Via, ch.Flags
	v.AnswerLink = storyAnchors[ch.Answer.Step]
	var births []explain.Birth
	for _, r := range ch.Read {
		v.Reads = append(v.Reads, fmt.Sprintf("%s ← %s", r.Key, r.Writer))
		if r.Key == keyHistory {
			births = r.Births
		}
	}
	answer := ch.Answer.Step
	if ch.Answer.Via != "" {
		answer += ", made final by " + ch.Answer.Via
	}
	abl := ablationOf(rep)
	for i, s := range ch.Suspects {
		sv := suspectView{Rank: i + 1, Anchor: "suspect-" + strconv.Itoa(i+1), Unit: s.Unit, Kind: s.Born.Kind,
			Score: strconv.FormatFloat(scores[s.Unit], 'f', 3, 64), Open: i < openSuspects,
			BornStep: s.Born.Step, BornHash: short(s.Born.ContentHash),
			AllowedStep: s.Allowed.Step, LandedStep: s.Landed.Step, Slot: s.Landed.Slot, Position: s.Landed.Position,
			Answer: answer}
		if d := s.Born.DefinedAt; d != nil {
			sv.Site, sv.Function = d.Place(), d.Function
		}
		switch {
		case s.Allowed.Trigger != nil:
			t := s.Allowed.Trigger
			sv.Trigger = string(t.Kind)
			if t.Label != "" {
				sv.Trigger += " “" + t.Label + "”"
			}
			for _, r := range t.Reads {
				sv.TriggerReads = append(sv.TriggerReads, fmt.Sprintf("read %s ← %s", r.Key, r.Writer))
			}
			for _, m := range t.Matches {
				sv.TriggerReads = append(sv.TriggerReads, fmt.Sprintf("%s returned (%s, iteration %d)", m.ToolName, m.ToolCallID, m.Iteration))
			}
			if a := t.ActivatedBy; a != nil {
				sv.TriggerReads = append(sv.TriggerReads, fmt.Sprintf("activated by %s in iteration %d", a.ToolCallID, a.Iteration))
			}
			sv.Link = unitAnchors[s.Unit]
			sv.Read = fmt.Sprintf("%s read %s, written by %s", ch.Answer.Step, keyContextUnits, s.Landed.Step)
		case s.Allowed.ToolCall != nil:
			tc := s.Allowed.ToolCall
			sv.Asked = fmt.Sprintf("%s asked for %s %s (%s)", s.Allowed.Step, tc.Name, compactJSON(tc.Args), tc.ID)
			if tc.Status != "" {
				sv.Asked += ", status " + tc.Status
			}
			if tc.Error {
				sv.Asked += ", reported an error"
			}
			sv.Link = storyAnchors[tc.ID]
			sv.Read = fmt.Sprintf("%s read %s element %s", ch.Answer.Step, keyHistory, strings.TrimPrefix(s.Unit, "history/"))
			for _, b := range births {
				if keyHistory+"/"+strconv.Itoa(b.Element) == s.Unit {
					sv.Read += ", put there by " + b.Step
				}
			}
		}
		if sp := s.Landed.Span; sp != nil {
			sv.Span = fmt.Sprintf("bytes [%d, %d) of request %s", sp.Start, sp.End, short(sp.RequestSha256))
			sv.SpanAnchor = "span-" + anchorID(s.Unit)
		}
		sv.Verdict = abl.of(s)
		v.Suspects = append(v.Suspects, sv)
	}
	v.Cards, v.Others = v.Suspects[:min(cardSuspects, len(v.Suspects))], v.Suspects[min(cardSuspects, len(v.Suspects)):]
	if abl != nil {
		v.Ablation = &abl.view
	}
	v.Rewind = rewindOf(rec, ch, v.Suspects, storyAnchors, unitAnchors)
	return v
}

// anchorID turns a unit id ("history/4") into an HTML id fragment.
func anchorID(unit string) string {
	return strings.NewReplacer("/", "-", " ", "-", ":", "-").Replace(unit)
}

// requestOf returns the llmRequest a model call committed.
func requestOf(rec *record.Record, commit int) (state.LLMRequest, bool) {
	c, ok := rec.Log.Commit(commit)
	if !ok || c.CommitDetail == nil {
		return state.LLMRequest{}, false
	}
	req, _, ok := opValue[state.LLMRequest](c, keyLLMRequest)
	if ok {
		// Every span of the request, the ones it shares with earlier calls too.
		req.Spans, req.SpansKept = rec.RequestSpans(req), 0
	}
	return req, ok
}

// spansOf returns the request's spans in byte order.
func spansOf(req state.LLMRequest) []llm.Span {
	out := slices.Clone(req.Spans)
	slices.SortStableFunc(out, func(a, b llm.Span) int { return a.Start - b.Start })
	return out
}
