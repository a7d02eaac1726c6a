// Fuzz target of the record decoder: any bytes either fail to decode or
// decode to a record that encodes again.

package record

import (
	"encoding/json"
	"testing"
)

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"format":"agentfootprint-go.record/1","manifest":{},"runId":"r","chartId":"agentfootprint.agent","commits":[]}`))
	f.Add([]byte(`{"format":"agentfootprint-go.record/1","commits":[{"idx":0,"runtimeStageId":"input"}]}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := Decode(data)
		if err != nil {
			return
		}
		if _, err := json.Marshal(rec); err != nil {
			t.Fatalf("decoded record does not encode: %v", err)
		}
	})
}
