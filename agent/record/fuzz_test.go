// Fuzz target of the record decoder: any bytes either fail to decode or
// are valid JSON and decode to a record that encodes again.

package record

import (
	"encoding/json"
	"testing"
)

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"format":"agentfootprint-go.record/1","manifest":{},"runId":"r","chartId":"agentfootprint.agent","commits":[]}`))
	f.Add([]byte(`{"format":"agentfootprint-go.record/1","commits":[{"idx":0,"runtimeStageId":"input"}]}`))
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"format":"agentfootprint-go.record/3","blobs":{"ab":"AQI="},"blobsInHistory":["ab"],"events":[{"type":"agentfootprint.tools.result","payload":{"toolCallId":"c","resultRef":"sha256:00"},"meta":{}}],"commits":[]}`))
	f.Add([]byte(` {"Format" : "agentfootprint-go.record/2", "commits" : null, "x\u0041": [1, {"a": "\""}]} `))
	f.Add([]byte(`{"format":"agentfootprint-go.record/4","runId":"r","chartId":"c","commits":[{"idx":0,"stage":"input","stageId":"input","runtimeStageId":"input"}],"subflows":{"q1":{"runId":"q1","chartId":"c","commits":[{"idx":0,"stage":"input","stageId":"input","runtimeStageId":"input"}]}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := Decode(data)
		if err != nil {
			return
		}
		if !json.Valid(data) {
			t.Fatalf("%q is not valid JSON, and decoded", data)
		}
		if _, err := json.Marshal(rec); err != nil {
			t.Fatalf("decoded record does not encode: %v", err)
		}
	})
}
