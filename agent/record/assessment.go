// This file folds the standing of a recorded turn.

package record

import (
	"github.com/agentfootprint/agentfootprint-go/agent/internal/keys"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/honesty/assess"
	assessfold "github.com/agentfootprint/agentfootprint-go/internal/honesty/assess"
)

// Assessment folds the standing of an agent's recorded turn, live or
// decoded, as of its last commit: the same fold the run made at its end
// (agent.Result.Assessment is this fold of the turn's own record; a paused
// turn is folded as of its pause). It is never nil: the record of an agent
// without the results layer gives standing not-assessed with the one reason
// "results-layer-not-armed", and a nil or empty record not-assessed with
// the reason "no-record" (NotFolded tells both apart from a folded
// standing). A composition's standing is its roll-up (compose.RollUpOf).
func (r *Record) Assessment() *assess.Assessment {
	if r == nil || r.Log == nil || len(r.Log.Commits) == 0 {
		return notAssessed(keys.ReasonNoRecord)
	}
	if _, ok, _ := flow.ValueAt(r.Log, len(r.Log.Commits)-1, keys.HonestyLayers.KeyName()); !ok {
		return notAssessed(keys.ReasonNotArmed)
	}
	st, err := assessfold.InputFromRecord(r.Log)
	if err != nil {
		return notAssessed(keys.ReasonNoRecord)
	}
	a := assessfold.Fold(st)
	return &a
}

// NotFolded reports an assessment that folded nothing: the agent had no
// results layer (reason "results-layer-not-armed") or there was no record
// (reason "no-record"), the two answers of Record.Assessment (and so of
// agent.Result.Assessment) that are not a standing. A report that shows a
// standing only when one was folded branches on it.
func NotFolded(a *assess.Assessment) bool {
	return a != nil && len(a.Reasons) == 1 && (a.Reasons[0].Reason == keys.ReasonNotArmed || a.Reasons[0].Reason == keys.ReasonNoRecord)
}

// notAssessed is the assessment of a turn that was not folded, with why.
func notAssessed(reason string) *assess.Assessment {
	return &assess.Assessment{
		Assessment: assess.ValueNotApplicable, Standing: assess.StandingNotAssessed,
		Reasons: []assess.Reason{{Reason: reason, Witness: []assess.Pointer{}}}, Checked: []assess.Check{},
		TurnFrom: assessfold.TurnFromWholeHistory,
	}
}
