// Pause and resume: the detached JSON checkpoint a paused run returns and
// how a chart validates it and continues exactly where it stopped.

package flow

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"
)

// checkpointVersion is the checkpoint format version this package writes.
const checkpointVersion = 1

// Checkpoint is the resumable state of a paused run. It is detached from the
// run: encode it with encoding/json, store it anywhere, and hand it (or its
// decoded JSON) to [Chart.Resume] on a chart with the same id.
//
// Decoded with encoding/json, State values, op values and PauseData are kept
// as raw JSON; Resume decodes them into the chart's declared key types.
type Checkpoint struct {
	Version              int            `json:"version"`
	RunID                string         `json:"runId"`
	ChartID              string         `json:"chartId"`
	State                map[string]any `json:"state"`
	Log                  *Record        `json:"log"`
	PausedStageID        string         `json:"pausedStageId"`
	PausedRuntimeStageID string         `json:"pausedRuntimeStageId"`
	PauseData            any            `json:"pauseData"`
	ExecutionCount       int            `json:"executionCount"`
	VisitCounts          map[string]int `json:"visitCounts"`
	SubflowPath          string         `json:"subflowPath"`
	PausedAt             string         `json:"pausedAt"`
}

// UnmarshalJSON keeps state values and pause data as raw JSON.
func (cp *Checkpoint) UnmarshalJSON(data []byte) error {
	type plain Checkpoint
	var w struct {
		plain
		State     map[string]json.RawMessage `json:"state"`
		PauseData json.RawMessage            `json:"pauseData"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*cp = Checkpoint(w.plain)
	cp.State = make(map[string]any, len(w.State))
	for k, v := range w.State {
		cp.State[k] = v
	}
	cp.PauseData = nil
	if w.PauseData != nil {
		cp.PauseData = w.PauseData
	}
	return nil
}

// checkpoint builds the detached checkpoint of a run paused at p.
func (e *exec) checkpoint(p *pausePoint) (*Checkpoint, error) {
	state := make(map[string]any, len(e.state))
	for i, k := range e.chart.keyList {
		if sl := &e.state[i]; sl.present {
			state[k.KeyName()] = sl.val
		}
	}
	if _, err := json.Marshal(state); err != nil {
		return nil, fmt.Errorf("flow: checkpoint state does not encode to JSON: %w", err)
	}
	return &Checkpoint{
		Version: checkpointVersion, RunID: e.r.id, ChartID: e.chart.id, State: state, Log: e.rec,
		PausedStageID: p.node.id, PausedRuntimeStageID: p.rid, PauseData: p.data,
		ExecutionCount: e.r.counter, VisitCounts: e.visitCounts(),
		PausedAt: e.r.now().UTC().Format(time.RFC3339),
	}, nil
}

// visitCounts returns the loop heads' visit counts keyed by node id.
func (e *exec) visitCounts() map[string]int {
	m := map[string]int{}
	for i := range e.ns {
		if v := e.ns[i].visits; v > 0 {
			m[e.chart.nodes[i].id] = v
		}
	}
	return m
}

func (e *exec) pauseAt(s *Scope, n *node, p *Pause) outcome {
	e.r.obs.flow(s.info, func(h *Hooks) {
		if h.Pause != nil {
			h.Pause(s.info, p.Data)
		}
	})
	return outcome{paused: &pausePoint{node: n, rid: s.info.RuntimeStageID, data: p.Data}}
}

// Resume continues a paused run from cp: it validates the checkpoint against
// this chart (version, chart id, paused stage, every state key declared and
// decodable, a well-formed log), restores state, log and counters under a
// fresh run id (the record's resumedFrom names the paused run), runs the
// paused stage's Resume with input as a new execution, commits it and walks
// on from the node after it. Earlier stages are not re-run.
func (c *Chart) Resume(ctx context.Context, cp *Checkpoint, input json.RawMessage, opts ...RunOption) (*Result, error) {
	if cp == nil {
		return nil, &CheckpointError{Field: "checkpoint", Reason: "is nil"}
	}
	if cp.Version != checkpointVersion {
		return nil, &CheckpointError{Field: "version", Reason: fmt.Sprintf("is %d, this engine reads %d", cp.Version, checkpointVersion)}
	}
	if cp.ChartID != c.id {
		return nil, &CheckpointError{Field: "chartId", Reason: fmt.Sprintf("is %q, not this chart %q", cp.ChartID, c.id)}
	}
	if cp.SubflowPath != "" {
		return nil, &CheckpointError{Field: "subflowPath", Reason: "must be empty: subflows cannot pause"}
	}
	ni, ok := c.byID[cp.PausedStageID]
	if !ok || c.nodes[ni].kind != kindPausable {
		return nil, &CheckpointError{Field: "pausedStageId", Reason: fmt.Sprintf("%q is not a pausable stage of chart %q", cp.PausedStageID, c.id)}
	}
	if cp.Log == nil || len(cp.Log.Commits) == 0 {
		return nil, &CheckpointError{Field: "log", Reason: "is missing"}
	}
	rec, err := c.typedRecord(cp.Log, true)
	if err != nil {
		return nil, &CheckpointError{Field: "log", Reason: err.Error()}
	}
	last := rec.Commits[len(rec.Commits)-1]
	if last.RuntimeStageID != cp.PausedRuntimeStageID {
		return nil, &CheckpointError{Field: "pausedRuntimeStageId",
			Reason: fmt.Sprintf("%q is not the last commit of the log (%q)", cp.PausedRuntimeStageID, last.RuntimeStageID)}
	}
	if cp.ExecutionCount < 0 {
		return nil, &CheckpointError{Field: "executionCount", Reason: "is negative"}
	}
	if err := c.checkCounters(cp, rec); err != nil {
		return nil, err
	}
	r := newRun(opts)
	r.prime(&c.hint)
	e := newExec(r, c, "")
	r.counter = cp.ExecutionCount
	rec.RunID, rec.ResumedFrom = r.id, cp.RunID
	e.rec = rec
	keys := slices.Sorted(maps.Keys(cp.State))
	for _, k := range keys {
		kind, ok := c.keys[k]
		if !ok {
			return nil, &CheckpointError{Field: "state." + k, Reason: "key is not declared on chart " + c.id}
		}
		v, err := typedValue(kind, cp.State[k], false)
		if err != nil {
			return nil, &CheckpointError{Field: "state." + k, Reason: err.Error()}
		}
		e.state[c.slotOf[k]] = slot{val: v, back: v, present: true}
	}
	// Restore who wrote each key, which keys are inputs, and the deciders'
	// last commits, from the log.
	for i := range rec.Commits {
		cm := rec.Commits[i]
		for _, op := range cm.Ops {
			si, declared := c.slotOf[op.Key]
			if !declared {
				continue
			}
			if sl := &e.state[si]; sl.present {
				sl.writer = i
			}
			if i == 0 {
				e.state[si].input = true
			}
		}
		if cm.Decision != nil {
			if ni, ok := c.byID[cm.StageID]; ok {
				e.ns[ni].lastDecider = i
			}
		}
	}
	for k, v := range cp.VisitCounts {
		if v < 0 {
			return nil, &CheckpointError{Field: "visitCounts." + k, Reason: "is negative"}
		}
		ni, ok := c.byID[k]
		if !ok {
			return nil, &CheckpointError{Field: "visitCounts." + k, Reason: "no node with that id in chart " + c.id}
		}
		e.ns[ni].visits = v
		r.loops += v
	}
	e.ctl = last.Control

	n := &c.nodes[ni]
	info := StageInfo{RunID: r.id, LoopIteration: r.loops}
	r.obs.flow(info, func(h *Hooks) {
		if h.RunStart != nil {
			h.RunStart(info)
		}
		if h.Resume != nil {
			h.Resume(info, cp.RunID)
		}
	})
	if err := ctx.Err(); err != nil {
		return r.finish(e, outcome{}, fmt.Errorf("flow: resume of %s: %w", cp.RunID, err))
	}
	s := e.begin(ctx, n)
	err = callResume(ctx, n, s, input)
	if err := e.end(s, err, nil, nil); err != nil {
		return r.finish(e, outcome{}, err)
	}
	e.executed(s, "pausable", n.next)
	if s.brk {
		return r.finish(e, e.broke(s), nil)
	}
	out, err := e.walk(ctx, n.next)
	return r.finish(e, out, err)
}

// typedValue converts a raw JSON value into the key's type, or checks a value
// that is already a Go value. checked says a raw value was checked as JSON
// by the decoder that read it.
func typedValue(k keyKind, v any, checked bool) (any, error) {
	if raw, ok := v.(json.RawMessage); ok {
		return k.decodeValue(raw, checked)
	}
	return k.check(v)
}

func typedTail(k keyKind, v any, checked bool) (any, error) {
	if raw, ok := v.(json.RawMessage); ok {
		return k.decodeTail(raw, checked)
	}
	return k.tail(v)
}

// typedRecord returns a validated copy of rec whose op values have the
// chart's key types (subflow records use the mounted charts' keys). With
// strict set, an op on an undeclared key is refused; otherwise its value
// stays raw. The copy's commits have spare capacity so the run can go on.
func (c *Chart) typedRecord(rec *Record, strict bool) (*Record, error) {
	return c.typed(rec, strict, false)
}

// typed is typedRecord; with own set, rec was just decoded (each raw value
// in it checked as JSON) and nothing else holds it, so its commits and ops
// are typed where they are, not copied.
func (c *Chart) typed(rec *Record, strict, own bool) (*Record, error) {
	if err := rec.Validate(); err != nil {
		return nil, err
	}
	out := &Record{RunID: rec.RunID, ChartID: rec.ChartID, ResumedFrom: rec.ResumedFrom, kinds: c.keys}
	out.Commits = make([]*Commit, len(rec.Commits), len(rec.Commits)+16)
	for i := range rec.Commits {
		cm := rec.Commits[i]
		if !own {
			cp := *cm
			cm = &cp
		}
		if len(cm.Ops) > 0 {
			ops := cm.Ops
			if !own {
				ops = make([]Op, len(cm.Ops))
			}
			for j, op := range cm.Ops {
				if contains(cm.Redacted, op.Key) {
					ops[j] = op // the value is the redaction marker
					continue
				}
				k, ok := c.keys[op.Key]
				if !ok {
					if strict {
						return nil, &CorruptLogError{Field: fmt.Sprintf("commits[%d].ops[%d].key", i, j),
							Reason: fmt.Sprintf("%q is not declared on chart %s", op.Key, c.id)}
					}
					ops[j] = op
					continue
				}
				var err error
				switch op.Verb {
				case VerbSet:
					op.Value, err = typedValue(k, op.Value, own)
				case VerbAppend:
					op.Value, err = typedTail(k, op.Value, own)
				case VerbMerge:
					if raw, isRaw := op.Value.(json.RawMessage); isRaw {
						var m map[string]any
						if err = json.Unmarshal(raw, &m); err == nil && m == nil {
							err = fmt.Errorf("merge patch is not an object")
						}
						op.Value = m
					}
				}
				if err != nil {
					return nil, &CorruptLogError{Field: fmt.Sprintf("commits[%d].ops[%d].value", i, j), Reason: err.Error()}
				}
				ops[j] = op
			}
			cm.Ops = ops
		}
		out.Commits[i] = cm
	}
	if len(rec.Subflows) > 0 {
		out.Subflows = make(map[string]*Record, len(rec.Subflows))
		for run, sub := range rec.Subflows {
			sc := c.subChartFor(rec, run)
			if sc == nil {
				out.Subflows[run] = sub
				continue
			}
			ts, err := sc.typed(sub, strict, own)
			if err != nil {
				return nil, fmt.Errorf("subflow %s: %w", run, err)
			}
			out.Subflows[run] = ts
		}
	}
	return out, nil
}

// subChartFor finds the chart mounted by the commit whose runtime id is run.
func (c *Chart) subChartFor(rec *Record, run string) *Chart {
	i, ok := rec.Find(run)
	if !ok {
		return nil
	}
	ni, ok := c.byID[rec.Commits[i].StageID]
	if !ok || c.nodes[ni].kind != kindMount {
		return nil
	}
	return c.nodes[ni].sub
}

// DecodeRecord decodes a record written by a run of this chart and converts
// every value of a declared key back into its Go type; values of keys the
// chart does not declare stay raw JSON, as do the values of attached logs (no
// mount names their chart). It refuses bytes that do not decode as a record
// with the decoder's error, and a record whose structure is wrong with a
// [*CorruptLogError] naming the field.
func (c *Chart) DecodeRecord(data []byte) (*Record, error) {
	rec, err := decodeRecordJSON(data)
	if err != nil {
		return nil, errDecode(err)
	}
	return c.typed(rec, false, true)
}
