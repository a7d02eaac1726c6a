// The retrieval record in the context units pane: for each query a retrieval
// ran, every candidate the index returned with its score, which were picked,
// which were dropped and why, and the character budget spent. Consecutive
// iterations that ran the same query with the same outcome show as one record.

package lens

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/inject"
)

// retrievalView is one query of one retrieval.
type retrievalView struct {
	Name, Query, Iterations, Contexts, Summary, Error string
	Candidates                                        []candidateView

	key  []byte // the record's JSON, to fold repeats
	from int    // the first iteration of the stretch
}

// candidateView is one passage the index returned for the query.
type candidateView struct {
	Rank          int
	ID, Anchor    string
	Source, Score string
	Chars         int
	Picked        bool
	Mark          badge
	Why           string
}

// retrievals collects the records of a run's context commits, in order.
type retrievals struct {
	views []retrievalView
	open  map[string]int // retrieval name → index of its last view
}

// add files the retrieval records carried by one context commit's entries.
func (rs *retrievals) add(entries []inject.Entry, iteration int, context string, anchors map[string]string) {
	for _, e := range entries {
		ev := e.Trigger.Retrieval
		if ev == nil || ev.Record == nil {
			continue
		}
		r := ev.Record
		key, _ := json.Marshal(r)
		if i, ok := rs.open[r.Retrieval]; ok && bytes.Equal(rs.views[i].key, key) {
			v := &rs.views[i]
			v.Iterations = iterRange(v.from, iteration)
			v.Contexts = firstWord(v.Contexts) + " … " + context
			continue
		}
		v := retrievalView{Name: r.Retrieval, Query: r.Query, Iterations: iterRange(iteration, iteration),
			Contexts: context, Summary: retrievalSummary(r), Error: r.Error, key: key, from: iteration}
		for _, c := range r.Candidates {
			cv := candidateView{Rank: c.Rank, ID: c.ID, Anchor: anchors[c.ID], Source: c.Source,
				Score: strconv.FormatFloat(c.Score, 'f', 3, 64), Chars: c.Chars, Picked: c.Picked}
			if c.Picked {
				cv.Mark, cv.Why = badge{"●", "picked", "b-ok", "placed in the request"}, "placed in the request"
			} else {
				cv.Mark, cv.Why = badge{"○", "dropped", "b-none", "not placed"}, dropWhy(c.Dropped, r)
			}
			v.Candidates = append(v.Candidates, cv)
		}
		if rs.open == nil {
			rs.open = map[string]int{}
		}
		rs.open[r.Retrieval] = len(rs.views)
		rs.views = append(rs.views, v)
	}
}

// retrievalSummary says in one line how many candidates were picked, under
// which limits, and how much of the budget they spent.
func retrievalSummary(r *inject.Retrieved) string {
	picked := 0
	for _, c := range r.Candidates {
		if c.Picked {
			picked++
		}
	}
	parts := []string{fmt.Sprintf("picked %d of %d candidates", picked, len(r.Candidates))}
	if r.TopK > 0 {
		parts = append(parts, fmt.Sprintf("top %d", r.TopK))
	}
	if r.Threshold != nil {
		parts = append(parts, "threshold "+strconv.FormatFloat(*r.Threshold, 'f', -1, 64))
	}
	if r.Budget > 0 {
		parts = append(parts, fmt.Sprintf("%d of the %d-character budget spent", r.Spent, r.Budget))
	} else {
		parts = append(parts, fmt.Sprintf("%d characters placed (no budget)", r.Spent))
	}
	return strings.Join(parts, " · ")
}

// dropWhy says why a candidate was not placed, in the retrieval's terms.
func dropWhy(reason string, r *inject.Retrieved) string {
	switch reason {
	case inject.DropThreshold:
		if r.Threshold != nil {
			return "its score is below the threshold " + strconv.FormatFloat(*r.Threshold, 'f', -1, 64)
		}
		return "its score is below the threshold"
	case inject.DropTopK:
		return fmt.Sprintf("better candidates filled the top %d", r.TopK)
	case inject.DropBudget:
		return "its text did not fit what was left of the budget"
	case inject.DropNoUnit:
		return "the agent has no unit for it (an ablation removed it, or it entered the corpus later)"
	case "":
		return "not placed"
	}
	return "dropped: " + reason
}

// retrievedWhy is the outcome line of a passage unit: whether its retrieval
// picked it for the query, and its rank and score when it was a candidate.
func retrievedWhy(ev *inject.RetrievalEvidence) string {
	if ev == nil {
		return "retrieved"
	}
	w := "retrieved by " + ev.Retrieval + " for “" + ev.Query + "”"
	c := ev.Candidate
	if c == nil {
		return w + ": not a candidate"
	}
	w += fmt.Sprintf(": rank %d, score %s", c.Rank, strconv.FormatFloat(c.Score, 'f', 3, 64))
	if !c.Picked && c.Dropped != "" {
		w += ", dropped (" + c.Dropped + ")"
	}
	return w
}
