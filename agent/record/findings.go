// This file reads a record's findings ledger.

package record

import (
	"encoding/json"

	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/honesty/ledger"
)

// Findings returns the findings ledger as of the record's last commit (the
// rows an earlier turn carried in included), or nil when no layer filed
// any. It reads the typed rows of a live record and the JSON of a decoded
// one alike.
func (r *Record) Findings() []ledger.Row {
	if r == nil || r.Log == nil || len(r.Log.Commits) == 0 {
		return nil
	}
	v, ok, err := flow.ValueAt(r.Log, len(r.Log.Commits)-1, state.KeyFindingsLedger.KeyName())
	if err != nil || !ok {
		return nil
	}
	switch t := v.(type) {
	case []ledger.Row:
		return t
	case json.RawMessage:
		var rows []ledger.Row
		if json.Unmarshal(t, &rows) == nil {
			return rows
		}
	}
	return nil
}
