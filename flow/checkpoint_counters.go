// This file holds the check that a checkpoint's counters agree with the record it carries:
// a counter that was corrupted or edited would otherwise restart the stage numbering or the
// loop counts, and the resumed run would write a record that fails its own Validate.

package flow

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// checkCounters compares cp.ExecutionCount and cp.VisitCounts with rec, the checkpoint's
// own log already decoded. The execution count must be one past the highest execution
// number in the log (the next runtime stage id would otherwise repeat one); each loop
// head's visit count must be the number of times the log re-entered it, and a node that
// is not a loop head has none.
func (c *Chart) checkCounters(cp *Checkpoint, rec *Record) error {
	highest := -1
	entries := map[string]int{}
	for _, cm := range rec.Commits[1:] {
		rid := cm.RuntimeStageID
		hash := strings.LastIndexByte(rid, '#')
		n, err := strconv.Atoi(rid[hash+1:])
		if hash < 0 || err != nil || n < 0 {
			return &CheckpointError{Field: "log", Reason: fmt.Sprintf("runtime stage id %q has no execution number", rid)}
		}
		highest = max(highest, n)
		if !strings.Contains(rid[:hash], "/") && cm.CommitDetail != nil {
			entries[cm.StageID]++
		}
	}
	if want := highest + 1; cp.ExecutionCount != want {
		return &CheckpointError{Field: "executionCount",
			Reason: fmt.Sprintf("is %d, but the log's last execution number is %d, so it must be %d", cp.ExecutionCount, highest, want)}
	}
	heads := map[string]bool{}
	for i := range c.nodes {
		if n := &c.nodes[i]; n.kind == kindLoop {
			heads[n.targetID] = true
		}
	}
	for _, k := range slices.Sorted(maps.Keys(cp.VisitCounts)) {
		if _, known := c.byID[k]; !known {
			continue // refused with its own reason by Resume
		}
		if !heads[k] {
			return &CheckpointError{Field: "visitCounts." + k,
				Reason: fmt.Sprintf("names %q, which no loop returns to, so it has no visit count", k)}
		}
		if want := max(entries[k]-1, 0); cp.VisitCounts[k] != want {
			return &CheckpointError{Field: "visitCounts." + k,
				Reason: fmt.Sprintf("is %d, but the log enters %q %d time(s), so it must be %d", cp.VisitCounts[k], k, entries[k], want)}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(heads)) {
		if _, ok := cp.VisitCounts[k]; !ok && entries[k] > 1 {
			return &CheckpointError{Field: "visitCounts." + k,
				Reason: fmt.Sprintf("is missing, but the log enters %q %d times, so it must be %d", k, entries[k], entries[k]-1)}
		}
	}
	return nil
}
