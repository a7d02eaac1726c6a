// The logs of agent tools: an agent that calls another agent as a tool keeps
// the inner run's log among its log's subflows, under the tool-call id. No
// commit mounts it (the tool stage ran it, not the engine), and the flow
// decoder refuses a subflow log without a mount commit, so the record's JSON
// writes these logs apart, under agentToolRuns, and Decode puts them back.

package record

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/agentfootprint/agentfootprint-go/flow"
)

// agentToolRun is one entry of agentToolRuns: the log of an agent tool's
// inner run and where it sits, as the subflow keys from the record's log
// down to it (the last one is the tool-call id).
type agentToolRun struct {
	At  []string        `json:"at"`
	Log json.RawMessage `json:"log"`
}

// unmounted splits log into the log the flow decoder reads back (the same
// log when it holds no agent tool's run) and the runs of agent tools found
// in it or in its mounted subflows, sorted by place. log is not changed.
func unmounted(log *flow.Record) (*flow.Record, []agentToolRun, error) {
	var runs []agentToolRun
	out, err := splitLog(log, nil, &runs, 0)
	if err != nil {
		return nil, nil, err
	}
	slices.SortFunc(runs, func(a, b agentToolRun) int { return slices.Compare(a.At, b.At) })
	return out, runs, nil
}

func splitLog(log *flow.Record, at []string, runs *[]agentToolRun, depth int) (*flow.Record, error) {
	if log == nil || len(log.Subflows) == 0 || depth > maxSubflowDepth {
		return log, nil
	}
	mounts := map[string]bool{}
	for _, c := range log.Commits {
		if c != nil && c.Subflow != nil {
			mounts[c.RuntimeStageID] = true
		}
	}
	var kept map[string]*flow.Record
	changed := false
	for key, sub := range log.Subflows {
		where := append(slices.Clip(at), key)
		if !mounts[key] {
			b, err := json.Marshal(sub)
			if err != nil {
				return nil, fmt.Errorf("agent tool run %q: %w", key, err)
			}
			*runs = append(*runs, agentToolRun{At: where, Log: b})
			changed = true
			continue
		}
		s, err := splitLog(sub, where, runs, depth+1)
		if err != nil {
			return nil, err
		}
		if kept == nil {
			kept = make(map[string]*flow.Record, len(log.Subflows))
		}
		kept[key] = s
		changed = changed || s != sub
	}
	if !changed {
		return log, nil
	}
	// A new value with the exported fields only: they are all the JSON
	// holds, and a flow.Record is not copied (it holds a lock).
	return &flow.Record{RunID: log.RunID, ChartID: log.ChartID, ResumedFrom: log.ResumedFrom, Commits: log.Commits, Subflows: kept}, nil
}

// attachAgentToolRuns decodes each agent tool's log and puts it back under
// its place in log, refusing a place whose path does not exist or is taken.
func attachAgentToolRuns(log *flow.Record, runs []agentToolRun) error {
	for i, r := range runs {
		field := fmt.Sprintf("agentToolRuns[%d]", i)
		if len(r.At) == 0 || len(r.At) > maxSubflowDepth+1 {
			return fmt.Errorf("%s.at: want 1 to %d subflow keys, got %d", field, maxSubflowDepth+1, len(r.At))
		}
		parent := log
		for _, key := range r.At[:len(r.At)-1] {
			next := parent.Subflows[key]
			if next == nil {
				return fmt.Errorf("%s.at: the log has no subflow %q", field, key)
			}
			parent = next
		}
		call := r.At[len(r.At)-1]
		if _, taken := parent.Subflows[call]; taken {
			return fmt.Errorf("%s.at: %q is there already", field, call)
		}
		sub, err := decodeChart().DecodeRecord(r.Log)
		if err != nil {
			return fmt.Errorf("%s.log: %w", field, err)
		}
		if parent.Subflows == nil {
			parent.Subflows = map[string]*flow.Record{}
		}
		parent.Subflows[call] = sub
	}
	return nil
}

// movedAgentToolRuns reads, from a record written before agentToolRuns, the
// top-level subflow logs no commit mounts (agent tools' runs kept among the
// subflows, which the flow decoder refuses), and takes them out of subflows.
// It returns nil when there is none, or when commits do not read.
func movedAgentToolRuns(commits json.RawMessage, subflows map[string]json.RawMessage) []agentToolRun {
	var cs []struct {
		RuntimeStageID string           `json:"runtimeStageId"`
		Subflow        *json.RawMessage `json:"subflow"`
	}
	if json.Unmarshal(commits, &cs) != nil {
		return nil
	}
	mounts := map[string]bool{}
	for _, c := range cs {
		if c.Subflow != nil {
			mounts[c.RuntimeStageID] = true
		}
	}
	var runs []agentToolRun
	for key, raw := range subflows {
		if !mounts[key] {
			runs = append(runs, agentToolRun{At: []string{key}, Log: raw})
		}
	}
	for _, r := range runs {
		delete(subflows, r.At[0])
	}
	slices.SortFunc(runs, func(a, b agentToolRun) int { return slices.Compare(a.At, b.At) })
	return runs
}
