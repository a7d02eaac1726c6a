// A record of format agentfootprint-go.record/2 (written before format 3
// named tool results by the history message that holds them) still loads
// and explains; written again it takes format 3, fewer bytes, and decodes
// to the same blobs and events; its audit export carries every result.

package explain_test

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/audit"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/explain"
	"github.com/agentfootprint/agentfootprint-go/store"
	"github.com/google/go-cmp/cmp"
)

func TestRecordFormat2LoadsAndRewritesInTheCurrentFormat(t *testing.T) {
	v2, err := os.ReadFile("testdata/record-v2.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(v2[:64], []byte(`"agentfootprint-go.record/2"`)) {
		t.Fatal("the fixture is not a format 2 record")
	}
	old, err := record.Decode(v2)
	if err != nil {
		t.Fatal(err)
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
	if got := strings.Join(names, " "); got != "unit:system-prompt tool:fetch_logs tool:fetch_logs" {
		t.Fatalf("suspects of the format 2 record: %s\n%v", got, ch)
	}

	v3, err := json.Marshal(old)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"format":"` + record.Format + `"`, `"blobsInHistory":["`, `"resultRef":"sha256:`} {
		if !bytes.Contains(v3, []byte(want)) {
			t.Errorf("the rewritten record has no %s", want)
		}
	}
	// Each page's text is written once, in the history message (40 lines
	// a page); the request bodies hold it too, as base64.
	if n := strings.Count(string(v3), "page 1: checkout error rate"); n != 40 {
		t.Errorf("page 1's line is written %d times, want 40 (the history message only)", n)
	}
	if len(v3) >= len(v2) {
		t.Errorf("format 3 is %d bytes, format 2 %d", len(v3), len(v2))
	}
	back, err := record.Decode(v3)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(old.Blobs, back.Blobs); d != "" {
		t.Errorf("blobs after format 3 (-format 2 +format 3):\n%s", d)
	}
	if d := cmp.Diff(eventsJSON(t, old.Events.Slice()), eventsJSON(t, back.Events.Slice())); d != "" {
		t.Errorf("events after format 3 (-format 2 +format 3):\n%s", d)
	}
	again, err := json.Marshal(back)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, v3) {
		t.Error("a decoded format 3 record does not encode back to its bytes")
	}
	// Every raw output is found, through history, for ablate's replay.
	w, err := explain.FrozenWorld(back, echoModel())
	if err != nil {
		t.Fatal(err)
	}
	if got := explain.RecordedOutputs(w); got != 2 {
		t.Errorf("%d recorded tool outputs, want 2", got)
	}

	run, err := store.RunFromRecord(back, store.StatusComplete, "Done.")
	if err != nil {
		t.Fatal(err)
	}
	ar, err := audit.FromStore(run)
	if err != nil {
		t.Fatal(err)
	}
	results := 0
	for _, e := range ar.Events {
		if e.Type != string(event.ToolsResult) {
			continue
		}
		results++
		p, _ := e.Payload.(map[string]any)
		if text, _ := p["result"].(string); !strings.Contains(text, "checkout error rate") || p["resultRef"] != nil {
			t.Errorf("audit's tools.result payload: %v", p)
		}
	}
	if results != 2 {
		t.Errorf("%d tools.result events exported, want 2", results)
	}
}

// eventsJSON is the JSON of each event, to compare payloads however they
// are held.
func eventsJSON(t *testing.T, evs []event.Event) []string {
	t.Helper()
	out := make([]string, len(evs))
	for i, e := range evs {
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = string(b)
	}
	return out
}
