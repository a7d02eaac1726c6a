// Slices by step id over any flow record, live or reloaded: the control
// edges are in the commits, so a reload loses none.

package explain

import (
	"encoding/json"
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/flow"
)

// Slice returns the backward slice from the commit named step ("approve#7"),
// with data edges to last writers and control edges labelled with the rule
// of the decision that governed each commit.
func Slice(log *flow.Record, step string, opt flow.SliceOptions) (*flow.SliceResult, error) {
	if log == nil {
		return nil, ErrNoRecord
	}
	i, err := findStep(log, step)
	if err != nil {
		return nil, err
	}
	return flow.Slice(log, i, opt)
}

// DecodeLog reads the JSON of a bare flow record (a chart run's commit log,
// not an agent record) and validates its structure. Values stay raw JSON,
// which slices do not need. The error names the malformed field.
func DecodeLog(data []byte) (*flow.Record, error) {
	var log flow.Record
	if err := json.Unmarshal(data, &log); err != nil {
		return nil, fmt.Errorf("explain: flow record: %w", err)
	}
	if err := log.Validate(); err != nil {
		return nil, fmt.Errorf("explain: flow record: %w", err)
	}
	return &log, nil
}
