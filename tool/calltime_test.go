package tool_test

import (
	"encoding/json"
	"testing"
	"time"

	timelayer "github.com/agentfootprint/agentfootprint-go/internal/clock"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// tool.CallTime promises to convert from timelayer.ToolTime field for field and
// to write the same JSON; this pins the promise from the tool side.
func TestCallTimeConvertsFromClockToolTime(t *testing.T) {
	now := time.Date(2026, 10, 9, 15, 40, 0, 0, time.UTC)
	tests := []timelayer.ToolTime{
		{Zone: "America/Los_Angeles", Now: now, DispatchedAt: now.Add(2500 * time.Millisecond)},
		{Zone: "UTC", ZoneUnknown: true, Now: now, DispatchedAt: now},
	}
	for _, tt := range tests {
		ct := tool.CallTime(tt)
		want, err := json.Marshal(tt)
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(ct)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("CallTime JSON %s, timelayer.ToolTime JSON %s", got, want)
		}
	}
}
