// Honesty travels up: a composition's standing is folded from the inner
// answers it used, never more confident than the least confident of them,
// with each reason naming the inner run and the row it came from.

package compose

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/honesty/assess"
	"github.com/agentfootprint/agentfootprint-go/honesty/ledger"
	assessfold "github.com/agentfootprint/agentfootprint-go/internal/honesty/assess"
	limitsblock "github.com/agentfootprint/agentfootprint-go/internal/honesty/limits"
)

// ReasonInnerFailed is the roll-up's reason for a tolerant branch that
// failed: the answer was merged without it.
const ReasonInnerFailed = "inner-agent-failed"

// RollUp is a composition's standing folded from its inner answers.
type RollUp struct {
	// Standing is the least confident inner standing (ask, not-sure,
	// not-assessed, consistent, known, from least to most confident);
	// not-sure when a tolerant branch failed; not-assessed with no inner
	// answer.
	Standing string `json:"standing"`
	// Reasons are the inner reasons, each naming its inner run, in the
	// order the inner runs committed.
	Reasons []InnerReason `json:"reasons"`
	// Inner is one row per inner run the answer used.
	Inner []InnerStanding `json:"inner"`
}

// InnerReason is one inner reason carried up. Witness points into the
// inner run's record: the log kept under Node in the outer record's
// subflows (Record.Log.Subflows[Node]); a reason the composition itself
// adds (ReasonInnerFailed) points into the outer log (Node is "").
type InnerReason struct {
	Reason  string           `json:"reason"`
	Agent   string           `json:"agent"`
	Node    string           `json:"node"`
	RunID   string           `json:"runId"`
	Witness []assess.Pointer `json:"witness"`
}

// InnerStanding is one inner run's standing, coverage rows and findings.
type InnerStanding struct {
	Agent    string                      `json:"agent"`
	Node     string                      `json:"node"`
	RunID    string                      `json:"runId"`
	Standing string                      `json:"standing"`
	Coverage []coverage.DeclaredCoverage `json:"coverage"`
	Findings []ledger.Row                `json:"findings"`
}

// confidence orders standings from least to most confident.
var confidence = map[string]int{
	assess.StandingAsk: 0, assess.StandingNotSure: 1, assess.StandingNotAssessed: 2,
	assess.StandingConsistent: 3, assess.StandingKnown: 4,
}

// seal folds the roll-up of the run's record and what the Result derives
// from it.
func (r *Result) seal() {
	r.RollUp = RollUpOf(r.Record)
	r.Assessment = assessmentOf(r.RollUp)
	r.LimitsBlock = limitsBlockOf(r.RollUp)
	r.AnswerWithLimits = limitsblock.Attach(r.Answer, r.LimitsBlock)
}

// RollUpOf folds a composition's standing from its record alone (live, or
// decoded from JSON): the fold Result.RollUp holds. A record
// that is not a composition's rolls up to not-assessed with no rows.
func RollUpOf(rec *record.Record) *RollUp {
	ru := &RollUp{Standing: assess.StandingNotAssessed, Reasons: []InnerReason{}, Inner: []InnerStanding{}}
	if rec == nil || rec.Log == nil || len(rec.Log.Commits) == 0 {
		return ru
	}
	least := -1
	lower := func(st string) {
		if c, ok := confidence[st]; ok && (least < 0 || c < least) {
			least, ru.Standing = c, st
		}
	}
	for i, o := range outcomesOf(rec.Log) {
		switch {
		case o.Removed:
			continue
		case o.Error != "":
			lower(assess.StandingNotSure)
			ru.Reasons = append(ru.Reasons, InnerReason{Reason: ReasonInnerFailed, Agent: o.Agent, Witness: []assess.Pointer{
				assessfold.StatePointer(kCOutcomes.KeyName(), "/"+strconv.Itoa(i)+"/error")}})
			continue
		}
		in, ok := rec.Inner(o.Node)
		if !ok {
			continue
		}
		runID := in.Log.RunID
		a := in.Assessment()
		is := InnerStanding{Agent: o.Agent, Node: o.Node, RunID: runID, Standing: a.Standing,
			Coverage: innerCoverage(in), Findings: in.Findings()}
		if is.Findings == nil {
			is.Findings = []ledger.Row{}
		}
		ru.Inner = append(ru.Inner, is)
		lower(a.Standing)
		if a.Standing == assess.StandingNotAssessed {
			continue // "not armed" is the inner agent's setup, not a finding
		}
		for _, reason := range a.Reasons {
			ru.Reasons = append(ru.Reasons, InnerReason{Reason: reason.Reason, Agent: o.Agent, Node: o.Node,
				RunID: runID, Witness: reason.Witness})
		}
	}
	return ru
}

// outcomesOf is the composition's outcomes as of its last commit (typed in a
// live record, JSON in a decoded one).
func outcomesOf(log *flow.Record) []Outcome {
	v, _, _ := flow.ValueAt(log, len(log.Commits)-1, kCOutcomes.KeyName())
	switch x := v.(type) {
	case []Outcome:
		return x
	case json.RawMessage:
		var outs []Outcome
		if json.Unmarshal(x, &outs) == nil {
			return outs
		}
	}
	return nil
}

// innerCoverage is an inner run's coverage rows as of its end.
func innerCoverage(rec *record.Record) []coverage.DeclaredCoverage {
	if rec == nil || rec.Log == nil || len(rec.Log.Commits) == 0 {
		return []coverage.DeclaredCoverage{}
	}
	v, ok, _ := flow.ValueAt(rec.Log, len(rec.Log.Commits)-1, state.KeyCoverageDeclared.KeyName())
	rows, _ := v.([]coverage.DeclaredCoverage)
	if !ok || rows == nil {
		return []coverage.DeclaredCoverage{}
	}
	return rows
}

// limitsBlockOf renders, per inner run that declared coverage, that run's
// limits block under the agent's name ("" when none declared any).
func limitsBlockOf(ru *RollUp) string {
	var parts []string
	for _, is := range ru.Inner {
		if b := limitsblock.CoverageBlock(is.Coverage); b != "" {
			parts = append(parts, fmt.Sprintf("From agent %q (%s):\n%s", is.Agent, is.Node, b))
		}
	}
	return strings.Join(parts, "\n\n")
}

// assessmentOf is the roll-up's standing as an assess.Assessment whose
// reasons are the inner reasons' names.
func assessmentOf(ru *RollUp) *assess.Assessment {
	a := &assess.Assessment{Standing: ru.Standing, Reasons: []assess.Reason{}, Checked: []assess.Check{}, TurnFrom: assessfold.TurnFromPerson}
	switch ru.Standing {
	case assess.StandingNotAssessed:
		a.Assessment = assess.ValueNotApplicable
	case assess.StandingConsistent:
		a.Assessment = assess.ValueUnrefuted
	case assess.StandingKnown:
		a.Assessment = assess.ValueKnown
	default:
		a.Assessment = assess.ValueUnknown
	}
	for _, reason := range ru.Reasons {
		a.Reasons = append(a.Reasons, assess.Reason{Reason: reason.Reason, Witness: []assess.Pointer{}})
	}
	return a
}
