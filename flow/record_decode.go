// Decoding a record's JSON in one pass: the wire structs below have no
// UnmarshalJSON of their own, so encoding/json checks the bytes once instead
// of once more per commit and per op, as the Commit and Op unmarshalers
// (which stay for records decoded by callers with encoding/json) must.

package flow

import (
	"encoding/json"
	"fmt"
)

type opWire struct {
	Key         *string         `json:"key"`
	Verb        Verb            `json:"verb"`
	Value       json.RawMessage `json:"value"`
	ReadsBefore int             `json:"readsBefore"`
}

type commitWire struct {
	Idx            int         `json:"idx"`
	Stage          string      `json:"stage"`
	StageID        string      `json:"stageId"`
	RuntimeStageID string      `json:"runtimeStageId"`
	Reads          []string    `json:"reads"`
	Ops            []opWire    `json:"ops"`
	Untracked      []string    `json:"untracked,omitempty"`
	Control        *Control    `json:"control,omitempty"`
	Decision       *Decision   `json:"decision,omitempty"`
	Error          string      `json:"error,omitempty"`
	Subflow        *SubflowRef `json:"subflow,omitempty"`
	Redacted       []string    `json:"redacted,omitempty"`
}

type recordWire struct {
	RunID       string                 `json:"runId"`
	ChartID     string                 `json:"chartId"`
	ResumedFrom string                 `json:"resumedFrom,omitempty"`
	Commits     []*commitWire          `json:"commits"`
	Subflows    map[string]*recordWire `json:"subflows,omitempty"`
}

// decodeRecordJSON reads data as encoding/json reads a *Record (the same
// fields, raw values, and the missing-key refusal of Op.UnmarshalJSON).
func decodeRecordJSON(data []byte) (*Record, error) {
	// The form Record's encoder writes is read without reflection
	// (record_fast.go); any other goes through encoding/json.
	if w, ok := fastRecordWire(data); ok {
		return w.record()
	}
	return slowRecordJSON(data)
}

// slowRecordJSON is decodeRecordJSON through encoding/json, for every form.
func slowRecordJSON(data []byte) (*Record, error) {
	var w recordWire
	if err := json.Unmarshal(data, &w); err != nil {
		return nil, err
	}
	return w.record()
}

func (w *recordWire) record() (*Record, error) {
	rec := &Record{RunID: w.RunID, ChartID: w.ChartID, ResumedFrom: w.ResumedFrom}
	if w.Commits != nil {
		rec.Commits = make([]*Commit, len(w.Commits))
		// One allocation for all commits and their details.
		cms := make([]Commit, len(w.Commits))
		dets := make([]CommitDetail, len(w.Commits))
		for i, p := range w.Commits {
			if p == nil {
				continue // null in the list, as encoding/json leaves it
			}
			var ops []Op
			if p.Ops != nil {
				ops = make([]Op, len(p.Ops))
				for j, o := range p.Ops {
					if o.Key == nil {
						return nil, &CorruptLogError{Field: "ops.key", Reason: "missing"}
					}
					ops[j] = Op{Key: *o.Key, Verb: o.Verb, ReadsBefore: o.ReadsBefore}
					if o.Value != nil {
						ops[j].Value = o.Value
					}
				}
			}
			dets[i] = CommitDetail{Stage: p.Stage, StageID: p.StageID, Reads: p.Reads, Untracked: p.Untracked,
				Decision: p.Decision, Error: p.Error, Subflow: p.Subflow, Redacted: p.Redacted}
			cms[i] = Commit{Idx: p.Idx, RuntimeStageID: p.RuntimeStageID, Ops: ops, Control: p.Control, CommitDetail: &dets[i]}
			rec.Commits[i] = &cms[i]
		}
	}
	if w.Subflows != nil {
		rec.Subflows = make(map[string]*Record, len(w.Subflows))
		for k, sw := range w.Subflows {
			if sw == nil {
				rec.Subflows[k] = nil
				continue
			}
			sub, err := sw.record()
			if err != nil {
				return nil, err
			}
			rec.Subflows[k] = sub
		}
	}
	return rec, nil
}

// errDecode wraps a decoding failure as DecodeRecord reports it.
func errDecode(err error) error { return fmt.Errorf("flow: decode record: %w", err) }
