// This file holds set arithmetic on half-open ranges: the union of several and what one set
// leaves of another, the pieces a period check reports as missing or extra.

package clock

import (
	"slices"

	"github.com/agentfootprint/agentfootprint-go/clock"
)

// Union merges rs into the fewest ranges covering the same instants, in time order. Ranges
// that overlap or touch are joined; empty ranges vanish. The input is not modified.
func Union(rs []clock.Range) []clock.Range {
	out := make([]clock.Range, 0, len(rs))
	for _, r := range rs {
		if r.From.Before(r.To) {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b clock.Range) int { return a.From.Compare(b.From) })
	merged := out[:0]
	for _, r := range out {
		if n := len(merged); n > 0 && !r.From.After(merged[n-1].To) {
			if r.To.After(merged[n-1].To) {
				merged[n-1].To = r.To
			}
			continue
		}
		merged = append(merged, r)
	}
	if len(merged) == 0 {
		return nil
	}
	return merged
}

// Difference returns the instants of ∪a that no range of b covers, as the fewest ranges in
// time order (nil when none): Difference({asked}, reads) is what a call missed, and
// Difference(reads, {asked}) what it read beyond.
func Difference(a, b []clock.Range) []clock.Range {
	cut := Union(b)
	var out []clock.Range
	for _, r := range Union(a) {
		from := r.From
		for _, c := range cut {
			if !c.To.After(from) {
				continue // wholly before what is left of r
			}
			if !c.From.Before(r.To) {
				break // wholly after r
			}
			if c.From.After(from) {
				out = append(out, clock.Range{From: from, To: c.From})
			}
			from = c.To
			if !from.Before(r.To) {
				break
			}
		}
		if from.Before(r.To) {
			out = append(out, clock.Range{From: from, To: r.To})
		}
	}
	return out
}
