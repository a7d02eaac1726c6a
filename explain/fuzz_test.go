// Fuzz target: any bytes given to Decode either fail with an error or yield
// a record every reader handles without panicking.

package explain_test

import (
	"encoding/json"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/explain"
	"github.com/agentfootprint/agentfootprint-go/flow"
)

func FuzzDecodeAndExplain(f *testing.F) {
	// A small record keeps each exec and any minimisation short.
	r := newRefunds(f)
	r.bp.Options = append(r.bp.Options, agent.WithoutEventLog())
	rec := r.run(f, refundsModel(false))
	data, err := json.Marshal(rec)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	if len(data) > 20000 {
		f.Fatalf("seed record is %d bytes; keep it small", len(data))
	}
	f.Add([]byte(`{"format":"agentfootprint-go.record/1"}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if log, err := explain.DecodeLog(data); err == nil && len(log.Commits) > 0 {
			_, _ = explain.Slice(log, log.Commits[len(log.Commits)-1].RuntimeStageID, flow.SliceOptions{MaxNodes: 10})
		}
		rec, err := record.Decode(data)
		if err != nil {
			return
		}
		_, _ = explain.Backtrack(rec, explain.Target{})
		_, _ = explain.Rank(rec, explain.Target{})
		_, _ = explain.MissingContext(rec, explain.Target{})
		_, _ = explain.FrozenWorld(rec, echoModel())
		for _, c := range rec.Log.Commits {
			_, _ = explain.Slice(rec.Log, c.RuntimeStageID, flow.SliceOptions{MaxNodes: 10})
		}
	})
}
