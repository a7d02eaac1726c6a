// A composed run (several inner agents) is stored as one run and reads back whole.

package store_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/compose"
	"github.com/agentfootprint/agentfootprint-go/explain"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/store"
)

// TestComposedRunIsOneStoreEntry: a composition's run is saved as one run
// with one record; loaded back, it rolls up and walks like the live one.
func TestComposedRunIsOneStoreEntry(t *testing.T) {
	mk := func(id, answer string) *agent.Agent {
		a, err := agent.New(scripted.New(scripted.Reply{Content: answer}), agent.WithID(id))
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	comp := compose.MustNew("pipeline", compose.Sequence(compose.Call("one", mk("one", "first")), compose.Call("two", mk("two", "second"))))
	res, err := comp.Run(context.Background(), agent.Input{Message: "go"})
	if err != nil {
		t.Fatal(err)
	}
	st := openStore(t)
	ctx := context.Background()
	run, err := store.RunFromRecord(res.Record, store.StatusComplete, res.Answer)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.PutRun(ctx, run); err != nil {
		t.Fatal(err)
	}
	info := run.RunInfo
	if info.ID != res.RunID || info.AgentID != "pipeline" || info.Answer != "second" {
		t.Errorf("header %+v", info)
	}
	rec, _, err := store.LoadRecord(ctx, st, res.RunID)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Log.Subflows) != 2 {
		t.Errorf("the stored record keeps %d inner runs, want 2", len(rec.Log.Subflows))
	}
	live, _ := json.Marshal(res.RollUp)
	back, _ := json.Marshal(compose.RollUpOf(rec))
	if d := cmp.Diff(string(live), string(back)); d != "" {
		t.Errorf("roll-up differs (-live +stored):\n%s", d)
	}
	ch, err := explain.BacktrackComposed(rec)
	if err != nil || len(ch.Hops) != 3 || ch.Hops[0].Inner == nil || ch.Hops[0].Inner.Answer.Text != "second" {
		t.Errorf("walk of the stored record: %v %+v", err, ch)
	}
}
