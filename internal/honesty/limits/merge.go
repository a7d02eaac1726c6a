// This file folds a run's coverageDeclared rows into the merged lists both the block and
// answerCoverage print: items deduplicated by what and why, periods by call and declared strings.

package limits

import (
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	"github.com/agentfootprint/agentfootprint-go/honesty/limits"
)

// merged is the run's declarations folded over every row, in row order then item order.
type merged struct {
	checked, notChecked, cannotCover []coverage.Item
	periods                          []limits.PeriodEntry
	inProgress                       []limits.InProgressEntry
}

type itemKey struct{ what, why string }

type periodKey struct {
	call, tool         string
	qFrom, qTo         string
	unknown            bool
	hFrom, hTo, readAt string
}

func merge(rows []coverage.DeclaredCoverage) merged {
	m := merged{checked: []coverage.Item{}, notChecked: []coverage.Item{}, cannotCover: []coverage.Item{}}
	seen := [3]map[itemKey]bool{{}, {}, {}}
	lists := [3]*[]coverage.Item{&m.checked, &m.notChecked, &m.cannotCover}
	seenPeriod := map[periodKey]bool{}
	for _, r := range rows {
		for li, src := range [3][]coverage.Item{r.Checked, r.NotChecked, r.CannotCover} {
			for _, it := range src {
				k := itemKey{it.What, it.Why}
				if seen[li][k] {
					continue
				}
				seen[li][k] = true
				*lists[li] = append(*lists[li], it)
			}
		}
		if p := r.Period; p != nil {
			k := periodKey{r.ToolCallID, r.ToolName, p.Queried.From, p.Queried.To, p.Held.Unknown, p.Held.From, p.Held.To, p.ReadAt}
			if !seenPeriod[k] {
				seenPeriod[k] = true
				m.periods = append(m.periods, limits.PeriodEntry{ToolName: r.ToolName, ToolCallID: r.ToolCallID,
					Queried: p.Queried, Held: p.Held, ReadAt: p.ReadAt})
			}
		}
		if r.Kind == boundary.KindLedger && len(r.InProgress) > 0 {
			m.inProgress = append(m.inProgress, limits.InProgressEntry{ToolName: r.ToolName, ToolCallID: r.ToolCallID,
				Items: append([]coverage.InProgressItem{}, r.InProgress...)})
		}
	}
	return m
}
