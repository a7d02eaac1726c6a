// Records: reading the retrieval records back out of a run record.

package retrieval

import (
	"fmt"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/inject"
)

// Records returns every retrieval record of a run, in the order the
// iterations ran them: one per retrieval per iteration, as the contextUnits
// state key holds them (on the evidence of the first passage unit of each
// retrieval).
func Records(rec *record.Record) ([]inject.Retrieved, error) {
	if rec == nil || rec.Log == nil {
		return nil, fmt.Errorf("retrieval: records: the run has no record")
	}
	var out []inject.Retrieved
	for i, c := range rec.Log.Commits {
		for _, op := range c.Ops {
			if op.Key != state.KeyContextUnits.KeyName() || op.Value == nil {
				continue
			}
			cu, err := asContextUnits(op.Value)
			if err != nil {
				return nil, fmt.Errorf("retrieval: records: contextUnits at commit %d: %w", i, err)
			}
			for _, e := range cu.Units {
				if r := e.Trigger.Retrieval; r != nil && r.Record != nil {
					out = append(out, *r.Record)
				}
			}
		}
	}
	return out, nil
}
