// Tests for decoding logs: corrupted records are refused naming the field,
// and the decoder never panics (fuzzed).

package flow_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/flow"
)

func TestCorruptLogRefused(t *testing.T) {
	c := agentChart(t, 1, -1)
	good := mustJSON(t, runAgent(t, c).Record)
	edit := func(f func(m map[string]any)) []byte {
		var m map[string]any
		if err := json.Unmarshal(good, &m); err != nil {
			t.Fatal(err)
		}
		f(m)
		b, _ := json.Marshal(m)
		return b
	}
	commit := func(m map[string]any, i int) map[string]any { return m["commits"].([]any)[i].(map[string]any) }
	op := func(m map[string]any, i, j int) map[string]any {
		return commit(m, i)["ops"].([]any)[j].(map[string]any)
	}
	tests := []struct {
		name  string
		data  []byte
		field string
	}{
		{"no commits", edit(func(m map[string]any) { m["commits"] = []any{} }), "commits"},
		{"null commit", edit(func(m map[string]any) { m["commits"].([]any)[3] = nil }), "commits[3]"},
		{"first is not input", edit(func(m map[string]any) { commit(m, 0)["runtimeStageId"] = "seed#0" }), "commits[0].runtimeStageId"},
		{"idx out of order", edit(func(m map[string]any) { commit(m, 2)["idx"] = 7 }), "commits[2].idx"},
		{"duplicate runtime id", edit(func(m map[string]any) { commit(m, 2)["runtimeStageId"] = "seed#0" }), "commits[2].runtimeStageId"},
		{"bad verb", edit(func(m map[string]any) { op(m, 1, 0)["verb"] = "replace" }), "commits[1].ops[0].verb"},
		{"missing key", edit(func(m map[string]any) { delete(op(m, 1, 0), "key") }), "ops.key"},
		{"readsBefore too big", edit(func(m map[string]any) { op(m, 1, 0)["readsBefore"] = 9 }), "commits[1].ops[0].readsBefore"},
		{"append not a list", edit(func(m map[string]any) { op(m, 2, 1)["value"] = "tail" }), "commits[2].ops[1].value"},
		{"control to nowhere", edit(func(m map[string]any) {
			commit(m, 4)["control"].(map[string]any)["decider"] = "sf-route#99"
		}), "commits[4].control.decider"},
		{"typed value of wrong type", edit(func(m map[string]any) { op(m, 1, 1)["value"] = "one" }), "commits[1].ops[1].value"},
		{"subflow keyed by a commit that mounts none", edit(func(m map[string]any) {
			m["subflows"] = map[string]any{"seed#0": map[string]any{"runId": "x", "commits": []any{}}}
		}), "subflows"},
		{"attached log null", edit(func(m map[string]any) { m["subflows"] = map[string]any{"q1": nil} }), "subflows[q1]"},
		{"attached log corrupt", edit(func(m map[string]any) {
			m["subflows"] = map[string]any{"q1": map[string]any{"runId": "q1", "commits": []any{}}}
		}), "subflows[q1].commits"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.DecodeRecord(tt.data)
			var ce *flow.CorruptLogError
			if !errors.As(err, &ce) || ce.Field != tt.field {
				t.Fatalf("err = %v, want CorruptLogError at %s", err, tt.field)
			}
		})
	}
	if _, err := c.DecodeRecord([]byte(`{"commits": 3}`)); err == nil {
		t.Error("a record with non-list commits decoded")
	}
	// An attached log (a run a stage started itself, under a name that is
	// no runtime id of the log) is kept and checked, not refused.
	attached := edit(func(m map[string]any) {
		var inner map[string]any
		json.Unmarshal(good, &inner)
		inner["runId"] = "q1"
		m["subflows"] = map[string]any{"q1": inner}
	})
	rec, err := c.DecodeRecord(attached)
	if err != nil {
		t.Fatalf("a record with an attached log: %v", err)
	}
	if sub := rec.Subflows["q1"]; sub == nil || sub.RunID != "q1" || len(sub.Commits) == 0 {
		t.Errorf("attached log = %+v, want the run q1 with its commits", sub)
	}
}

// FuzzDecodeRecord feeds arbitrary bytes to the record decoder and to replay
// over whatever decodes: errors are fine, panics are not, and a record that
// decodes re-encodes to JSON that decodes to the same bytes again.
func FuzzDecodeRecord(f *testing.F) {
	c := agentChart(f, 1, -1)
	res, err := c.Run(bg(), map[string]any{"userMessage": "hi", "maxIterations": 3}, flow.WithRunID("fuzz"))
	if err != nil {
		f.Fatal(err)
	}
	good, _ := json.Marshal(res.Record)
	f.Add(good)
	f.Add([]byte(`{"runId":"r","chartId":"agent","commits":[{"idx":0,"stage":"input","stageId":"input","runtimeStageId":"input","reads":[],"ops":[{"key":"history","verb":"append","value":[1],"readsBefore":0}]}]}`))
	f.Add([]byte(`{"commits":[{"idx":0,"runtimeStageId":"input","stageId":"input","ops":[{"key":"m","verb":"merge","value":{"a":{"b":1}},"readsBefore":0},{"key":"m","verb":"merge","value":{"a":2},"readsBefore":0}],"decision":{"chosen":["a"],"default":false,"rules":[]}}]}`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"commits":[null]}`))
	f.Add([]byte(`{"commits":[{"idx":0,"runtimeStageId":"input","stageId":"input"},{"idx":1,"runtimeStageId":"a#0","stageId":"a","subflow":{"path":"a","run":"a#0"}}],"subflows":{"a#0":{"commits":[null]}}}`))
	f.Add([]byte(`{"commits":[{"idx":0,"runtimeStageId":"input","stageId":"input"}],"subflows":{"q1":{"runId":"q1","commits":[{"idx":0,"runtimeStageId":"input","stageId":"input"}],"subflows":{"q2":{"commits":[{"idx":0,"runtimeStageId":"input","stageId":"input"}]}}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, decode := range []func([]byte) (*flow.Record, error){
			c.DecodeRecord,
			func(b []byte) (*flow.Record, error) {
				var r flow.Record
				if err := json.Unmarshal(b, &r); err != nil {
					return nil, err
				}
				return &r, r.Validate()
			},
		} {
			rec, err := decode(data)
			if err != nil {
				continue
			}
			for i := range rec.Commits {
				for _, op := range rec.Commits[i].Ops {
					_, _, _ = flow.ValueAt(rec, i, op.Key)
					_, _, _ = flow.ElementBirth(rec, op.Key, 0, i)
				}
			}
			_, _ = flow.Slice(rec, len(rec.Commits)-1, flow.SliceOptions{})
			enc, err := json.Marshal(rec)
			if err != nil {
				continue
			}
			var again flow.Record
			if err := json.Unmarshal(enc, &again); err != nil {
				t.Fatalf("re-encoded record does not decode: %v\n%s", err, enc)
			}
			enc2, err := json.Marshal(&again)
			if err != nil || !bytes.Equal(enc, enc2) {
				t.Fatalf("re-encoding is not stable:\n%s\n%s", enc, enc2)
			}
		}
	})
}

// FuzzResumeCheckpoint feeds arbitrary bytes to the checkpoint decoder and,
// when they decode, to Resume on the chart they claim to come from: every
// refusal is an error, never a panic, and runs stay bounded.
func FuzzResumeCheckpoint(f *testing.F) {
	c := agentChart(f, 3, 2)
	res, err := c.Run(bg(), map[string]any{"userMessage": "hi", "maxIterations": 5}, flow.WithRunID("fuzz"), fixedClock)
	if err != nil || !res.Paused {
		f.Fatalf("seed run: %v", err)
	}
	good, _ := json.Marshal(res.Checkpoint)
	f.Add(good, []byte(`"yes"`))
	f.Add([]byte(`{"version":1,"chartId":"agent","pausedStageId":"tool-calls","log":{"commits":[{"idx":0,"stageId":"input","runtimeStageId":"input"}]},"pausedRuntimeStageId":"input"}`), []byte(`1`))
	f.Add([]byte(`{"version":1}`), []byte(`null`))
	f.Fuzz(func(t *testing.T, data, input []byte) {
		cp, err := decodeCheckpoint(data)
		if err != nil {
			return
		}
		if !json.Valid(input) {
			input = []byte(`null`)
		}
		out, err := c.Resume(bg(), cp, input, flow.WithVisitLimit(20))
		if err != nil {
			return
		}
		if out.Record == nil || out.Record.Validate() != nil {
			t.Fatalf("resume succeeded with an invalid record")
		}
	})
}
