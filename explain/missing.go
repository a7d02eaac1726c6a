// Missing context: what was available to a model call but
// never sent, and what never fired, derived from the record.

package explain

import (
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"slices"
	"strconv"
)

// missingLimit is stated in every missing-context answer.
const missingLimit = "a unit that was never defined cannot be found: only catalog units and recorded history are compared"

// Missing is available − sent for one model call.
type Missing struct {
	Call           string         `json:"call"`
	Commit         int            `json:"commit"`
	Dropped        []MissingItem  `json:"dropped"`
	Inactive       []InactiveItem `json:"inactive"`
	AvailableCount int            `json:"availableCount"`
	SentCount      int            `json:"sentCount"`
	Flags          []string       `json:"flags"`
	Limit          string         `json:"limit"`
}

// MissingItem is an available unit or history message with no span in the
// request, with the recorded reason (budget, policy, duplicate, window). An
// empty reason means the record gives none; a unit the record shows placed
// but without a span is also flagged (unit-placed-without-span).
type MissingItem struct {
	ID      string `json:"id"`
	Kind    string `json:"kind"`
	Reason  string `json:"reason"`
	Step    string `json:"step"`
	Commit  int    `json:"commit"`
	Pointer string `json:"pointer"`
	Text    string `json:"text,omitempty"`
}

// InactiveItem is a catalog unit that did not fire, with the evidence of why.
type InactiveItem struct {
	ID      string          `json:"id"`
	Kind    string          `json:"kind"`
	Trigger inject.Evidence `json:"trigger"`
	Step    string          `json:"step"`
	Commit  int             `json:"commit"`
	Pointer string          `json:"pointer"`
	Score   float64         `json:"score"`
}

// timeLineUnit is the unit id of the message that carries the time layer's
// served time line (its span kind is that of any message).
const timeLineUnit = "time-line"

// MissingContext compares what was available to the target model call
// (active units, the history before any window, the offered tools) with what
// has a span in its request. Inactive units are listed best lexical match
// to the answer first. It refuses what Backtrack refuses.
func MissingContext(rec *record.Record, target Target) (*Missing, error) {
	if rec == nil || rec.Log == nil {
		return nil, ErrNoRecord
	}
	log := rec.Log
	var ans AnswerHop
	ci, err := answerCall(log, target, &ans)
	if err != nil {
		return nil, err
	}
	call, err := readCall(log, ci)
	if err != nil {
		return nil, err
	}
	cat, _, err := catalog(log)
	if err != nil {
		return nil, err
	}
	kinds := map[string]inject.CatalogEntry{}
	for _, e := range cat {
		kinds[e.ID] = e
	}
	m := &Missing{Call: runID(log, ci), Commit: ci, Dropped: []MissingItem{}, Inactive: []InactiveItem{}, Flags: []string{}, Limit: missingLimit}
	hasSpan := map[string]bool{}
	for _, s := range call.req.Spans {
		if s.Kind == llm.SpanTimeLine || s.Unit == timeLineUnit {
			continue // the time line is neither a context unit nor a message of history
		}
		hasSpan[s.Unit] = true
		m.SentCount++
		if s.Kind == llm.SpanToolSchema {
			m.AvailableCount++ // an offered tool is available and sent
		}
	}
	step := runID(log, call.context)
	flag := func(f string) {
		if !slices.Contains(m.Flags, f) {
			m.Flags = append(m.Flags, f)
		}
	}
	for k, e := range call.units.Units {
		ptr := "/units/" + strconv.Itoa(k)
		if !e.Active {
			ce := kinds[e.ID]
			text, _ := unitText(rec, ce)
			m.Inactive = append(m.Inactive, InactiveItem{ID: e.ID, Kind: ce.Kind, Trigger: e.Trigger,
				Step: step, Commit: call.context, Pointer: ptr + "/trigger", Score: round4(Similarity(text, ans.Text))})
			continue
		}
		m.AvailableCount++
		if hasSpan[e.ID] {
			continue
		}
		it := MissingItem{ID: e.ID, Kind: kinds[e.ID].Kind, Step: step, Commit: call.context, Pointer: ptr}
		switch {
		case e.Dropped != nil:
			it.Reason = e.Dropped.Reason
		case e.Placed != nil:
			flag(flagPlacedWithoutSpan)
		}
		it.Text, _ = unitText(rec, kinds[e.ID])
		m.Dropped = append(m.Dropped, it)
	}
	evicted := map[int]string{}
	for _, ev := range call.units.History.Evicted {
		evicted[ev.Index] = ev.Reason
	}
	for i, msg := range call.history {
		m.AvailableCount++
		id := historyUnit(i)
		if hasSpan[id] {
			continue
		}
		it := MissingItem{ID: id, Kind: "message", Reason: evicted[i], Step: step, Commit: call.context,
			Pointer: "/history/evicted", Text: msg.Content}
		m.Dropped = append(m.Dropped, it)
	}
	slices.SortStableFunc(m.Inactive, func(a, b InactiveItem) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return 0
	})
	return m, nil
}

// RestorationSpecs are the Force specs of the restoration probe: up to k
// candidates (5 when k ≤ 0), dropped items first, then inactive units by
// lexical score. Probe them with Probe; a confirmed verdict reads "restoring X
// changes the answer".
func (m *Missing) RestorationSpecs(k int) []Spec {
	if k <= 0 {
		k = 5
	}
	var out []Spec
	for _, d := range m.Dropped {
		out = append(out, Force(d.ID))
	}
	for _, in := range m.Inactive {
		out = append(out, Force(in.ID))
	}
	if len(out) > k {
		out = out[:k]
	}
	return out
}
