// The format 3 form of a tools.result payload keeps every field of
// event.ToolsResultPayload but the text, in the same order.

package record

import (
	"reflect"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/google/go-cmp/cmp"
)

func TestStoredToolsResultFollowsThePayload(t *testing.T) {
	fields := func(v any, skip string) []string {
		var out []string
		rt := reflect.TypeOf(v)
		for i := range rt.NumField() {
			if f := rt.Field(i); f.Name != skip {
				out = append(out, f.Name+" "+f.Type.String()+" "+string(f.Tag))
			}
		}
		return out
	}
	if d := cmp.Diff(fields(event.ToolsResultPayload{}, "Result"), fields(storedToolsResult{}, "ResultRef")); d != "" {
		t.Errorf("storedToolsResult no longer follows event.ToolsResultPayload (-payload +stored):\n%s", d)
	}
}

func TestRestoreEventKeepsAnUnknownReference(t *testing.T) {
	h := heldContent{byText: map[string]string{}, byHash: map[string]string{}}
	p := []byte(`{"toolCallId":"c1","resultRef":"sha256:` + strings.Repeat("a", 64) + `","durationMs":0}`)
	if got := h.restoreEvent(event.ToolsResult, p); string(got) != string(p) {
		t.Errorf("a reference history does not hold became %s", got)
	}
}
