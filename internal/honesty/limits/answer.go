// This file holds AnswerCoverageOf: the limits as data, for an answer that must stay the
// model's JSON.

package limits

import (
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/honesty/limits"
)

// AnswerCoverageOf folds the run's coverageDeclared rows, and the assumed values the inputs layer
// hands over, into answerCoverage. It returns nil when nothing was declared and nothing assumed:
// the key is then left out.
func AnswerCoverageOf(rows []coverage.DeclaredCoverage, assumed []limits.Assumed) *limits.AnswerCoverage {
	if len(rows) == 0 && len(assumed) == 0 {
		return nil
	}
	m := merge(rows)
	ac := &limits.AnswerCoverage{Checked: m.checked, NotChecked: m.notChecked, CannotCover: m.cannotCover,
		Periods: m.periods, InProgress: m.inProgress}
	if len(assumed) > 0 {
		ac.Assumed = append([]limits.Assumed{}, assumed...)
		for i := range ac.Assumed {
			if ac.Assumed[i].Hidden {
				ac.Assumed[i].Value = "REDACTED"
			}
		}
	}
	return ac
}

// periodOf is the declared period an entry carries, as the line renderers read it.
func periodOf(p limits.PeriodEntry) coverage.Period {
	return coverage.Period{Queried: p.Queried, Held: p.Held, ReadAt: p.ReadAt}
}
