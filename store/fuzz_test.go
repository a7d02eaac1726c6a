// DecodeRecord on arbitrary stored bytes: it refuses or decodes, and never panics.

package store_test

import (
	"encoding/json"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/store"
)

// FuzzDecodeRecord feeds DecodeRecord stored runs whose record bytes are arbitrary: it must refuse or
// decode, never panic, and a decoded record must carry the run's blobs.
func FuzzDecodeRecord(f *testing.F) {
	f.Add([]byte(`{"format":"agentfootprint-go.record/1","manifest":{"runId":"r"},"structure":{},"runId":"r","chartId":"agentfootprint.agent","commits":[],"blobs":{},"events":[],"droppedEvents":0}`))
	f.Add([]byte(`{"format":"agentfootprint-go.record/1","commits":[{"idx":0}],"events":[{"type":"x","payload":1}]}`))
	f.Add([]byte(`{"format":"other/1"}`))
	f.Add([]byte(`[]`))
	blob := store.Blob{SHA256: store.Digest([]byte("body")), Data: []byte("body")}
	f.Fuzz(func(t *testing.T, data []byte) {
		run := &store.Run{RunInfo: store.RunInfo{ID: "fuzz"}, Record: json.RawMessage(data), Blobs: []store.Blob{blob}}
		rec, err := store.DecodeRecord(run)
		if err != nil {
			return
		}
		if got, ok := rec.Blob(blob.SHA256); !ok || string(got) != "body" {
			t.Errorf("decoded record lacks the run's blob")
		}
	})
}
