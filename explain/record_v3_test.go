// A record of format agentfootprint-go.record/3 (written before format 4
// let a request delta reuse the end of the body before it) still loads:
// every model call's request rebuilds to the bytes that were sent, it
// explains, and written again it takes the current format, explains the
// same, and exports every tool result.
//
// testdata/record-v3.json was written by the code at 1c4e02c, the last
// commit before format 4, running this file's scenario: a test at that
// commit ran an agent with two tools (three tool calls, then an answer) on
// the scripted model and saved its record's JSON. Its definedAt locations
// name that test.

package explain_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/audit"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/explain"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/store"
	"github.com/google/go-cmp/cmp"
)

func TestRecordFormat3LoadsRebuildsAndRewrites(t *testing.T) {
	v3, err := os.ReadFile("testdata/record-v3.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(v3[:64], []byte(`"agentfootprint-go.record/3"`)) {
		t.Fatal("the fixture is not a format 3 record")
	}
	old, err := record.Decode(v3)
	if err != nil {
		t.Fatal(err)
	}
	if calls, deltas := requestsRebuild(t, old); calls != 4 || deltas == 0 {
		t.Fatalf("the format 3 record has %d model calls, %d of them deltas; want 4 calls and some deltas", calls, deltas)
	}

	ch, err := explain.Backtrack(old, explain.Target{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range ch.Suspects {
		names = append(names, s.Name)
		if s.Landed.Span == nil {
			t.Errorf("suspect %s has no byte span in the request", s.Name)
		}
	}
	if got := strings.Join(names, " "); got != "tool:service_status tool:fetch_logs tool:fetch_logs unit:system-prompt" {
		t.Fatalf("suspects of the format 3 record: %s\n%v", got, ch)
	}

	now, err := json.Marshal(old)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(now, []byte(`"format":"`+record.Format+`"`)) {
		t.Fatalf("the rewritten record does not name format %s", record.Format)
	}
	back, err := record.Decode(now)
	if err != nil {
		t.Fatal(err)
	}
	requestsRebuild(t, back)
	again, err := json.Marshal(back)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, now) {
		t.Error("a rewritten format 3 record does not encode back to its bytes")
	}
	if d := cmp.Diff(eventsJSON(t, old.Events.Slice()), eventsJSON(t, back.Events.Slice())); d != "" {
		t.Errorf("events after rewriting (-format 3 +%s):\n%s", record.Format, d)
	}
	ch2, err := explain.Backtrack(back, explain.Target{})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(ch.String(), ch2.String()); d != "" {
		t.Errorf("the rewritten record explains differently (-format 3 +%s):\n%s", record.Format, d)
	}

	run, err := store.RunFromRecord(back, store.StatusComplete, "Checkout is degraded: its error rate is 12%.")
	if err != nil {
		t.Fatal(err)
	}
	ar, err := audit.FromStore(run)
	if err != nil {
		t.Fatal(err)
	}
	var results []string
	for _, e := range ar.Events {
		if e.Type != string(event.ToolsResult) {
			continue
		}
		p, _ := e.Payload.(map[string]any)
		text, _ := p["result"].(string)
		if p["resultRef"] != nil {
			t.Errorf("audit's tools.result payload still names its result: %v", p)
		}
		results = append(results, strings.SplitN(text, "\n", 2)[0])
	}
	want := []string{
		"page 1: checkout error rate 12%, upstream reset",
		"page 2: checkout error rate 12%, upstream reset",
		"checkout is degraded since 09:12",
	}
	if d := cmp.Diff(want, results); d != "" {
		t.Errorf("first lines of the exported tool results (-want +got):\n%s", d)
	}
}

// requestsRebuild rebuilds every model call's request of rec and checks
// that its bytes hash to the recorded SHA-256 and length. It returns the
// number of calls and how many were kept as a delta on an earlier body.
func requestsRebuild(t *testing.T, rec *record.Record) (calls, deltas int) {
	t.Helper()
	for _, c := range rec.Log.Commits {
		for _, op := range c.Ops {
			req, ok := op.Value.(state.LLMRequest)
			if op.Key != state.KeyLLMRequest.KeyName() || op.Verb != flow.VerbSet || !ok {
				continue
			}
			calls++
			if _, whole := rec.Blobs[req.Request.Sha256]; !whole {
				deltas++
			}
			body, ok := rec.Blob(req.Request.Blob)
			if !ok {
				t.Fatalf("call %d: request %s does not rebuild", req.Iteration, req.Request.Blob)
			}
			sum := sha256.Sum256(body)
			if got := hex.EncodeToString(sum[:]); got != req.Request.Sha256 || len(body) != req.Request.Bytes {
				t.Fatalf("call %d: rebuilt %d bytes hashing %s, recorded %d bytes %s", req.Iteration, len(body), got, req.Request.Bytes, req.Request.Sha256)
			}
		}
	}
	return calls, deltas
}
