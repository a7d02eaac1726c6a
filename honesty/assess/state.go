// This file holds State, the one shape the fold reads, and the constructors that build it from a
// live run, a stored record, JSON, or a checkpoint's ledger.

package assess

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/honesty/ledger"
)

// State keys the fold reads (wire names).
const (
	KeyTurnNumber       = "turnNumber"
	KeyFindingsLedger   = ledger.StateKeyName
	KeyCoverageDeclared = "coverageDeclared"
	KeyHistory          = "history"
	KeyUserMessage      = "userMessage"
	KeyArgumentAsk      = "argumentAsk"
)

// Keys returns the state keys the fold reads.
func Keys() []string {
	return []string{KeyTurnNumber, KeyFindingsLedger, KeyCoverageDeclared, KeyHistory, KeyUserMessage, KeyArgumentAsk}
}

// State is the committed record as the fold reads it: state keys mapped to their values decoded
// as plain JSON (objects as map[string]any, lists as []any, numbers as float64). Every witness
// pointer resolves against it.
type State map[string]any

// StateOf builds a State from committed values of any Go type (a live snapshot, or
// flow.Materialise of a record), keeping only the keys the fold reads. Each value is passed
// through its JSON encoding, so the fold sees exactly what a stored record holds.
func StateOf(values map[string]any) (State, error) {
	s := State{}
	for _, k := range Keys() {
		v, ok := values[k]
		if !ok {
			continue
		}
		n, err := normalise(v)
		if err != nil {
			return nil, fmt.Errorf("assess: state key %s: %w", k, err)
		}
		s[k] = n
	}
	return s, nil
}

// StateFromReader builds a State from a live scope or any other flow.Reader.
func StateFromReader(r flow.Reader) (State, error) {
	values := map[string]any{}
	for _, k := range Keys() {
		if v, ok := r.Get(k); ok {
			values[k] = v
		}
	}
	return StateOf(values)
}

// StateFromRecord builds a State from a run's record as of its last commit. A stored record
// decoded with encoding/json (values left as raw JSON) works as well as a live one.
func StateFromRecord(rec *flow.Record) (State, error) {
	if rec == nil || len(rec.Commits) == 0 {
		return nil, fmt.Errorf("assess: empty record")
	}
	values, err := flow.Materialise(rec, len(rec.Commits)-1)
	if err != nil {
		return nil, fmt.Errorf("assess: %w", err)
	}
	return StateOf(values)
}

// StateFromJSON builds a State from a JSON object whose members are state keys, such as a
// snapshot of committed state or a conversation checkpoint (which carries history and
// findingsLedger at its top level). Members the fold does not read are ignored.
func StateFromJSON(data []byte) (State, error) {
	var values map[string]json.RawMessage
	if err := json.Unmarshal(data, &values); err != nil {
		return nil, fmt.Errorf("assess: state is not a JSON object: %w", err)
	}
	m := make(map[string]any, len(values))
	for k, v := range values {
		m[k] = v
	}
	return StateOf(m)
}

// StateFromLedger builds a State from a findings ledger alone, such as a checkpoint's, folded for
// the given turn. A turn below 1 folds every row.
func StateFromLedger(rows []ledger.Row, turn int) (State, error) {
	values := map[string]any{KeyFindingsLedger: rows}
	if turn >= 1 {
		values[KeyTurnNumber] = turn
	}
	return StateOf(values)
}

// normalise turns a Go value into its plain JSON form.
func normalise(v any) (any, error) {
	var data []byte
	switch t := v.(type) {
	case json.RawMessage:
		data = t
	case []byte:
		data = t
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		data = b
	}
	var out any
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	return out, nil
}
