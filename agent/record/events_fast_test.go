package record_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// writtenEvents is the "events" member of a record the agent wrote: tool
// calls, a failing tool, the results layer's events, caller identity.
func writtenEvents(t testing.TB) []byte {
	t.Helper()
	failing := tool.Must(tool.New("disk_usage", "Report how full a host's disk is.",
		func(ctx context.Context, in struct {
			Host string `json:"host" jsonschema:"the host to check"`
		}) (string, error) {
			return "", context.DeadlineExceeded
		}))
	p := scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "disk_usage", Args: json.RawMessage(`{"host":"db-1"}`)}}},
		scripted.Reply{Content: "db-1 is \"fine\".\n"},
	)
	a, err := agent.New(p, agent.WithTools(failing), agent.WithResultsLayer(), agent.WithLimitsBlock())
	if err != nil {
		t.Fatal(err)
	}
	c := a.NewConversation(agent.WithIdentity(agent.Identity{SessionID: "s-1", Principal: "ana", Tenant: "t"}))
	res, err := c.Send(context.Background(), agent.Input{Message: "Is db-1 full?"})
	if err != nil {
		t.Fatal(err)
	}
	return memberOf(t, res.Record, "events")
}

// memberOf is the member name of rec as the encoder writes it.
func memberOf(tb testing.TB, rec *record.Record, name string) []byte {
	tb.Helper()
	data, err := json.Marshal(rec)
	if err != nil {
		tb.Fatal(err)
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		tb.Fatal(err)
	}
	return members[name]
}

// The encoder's events are read without encoding/json, and read the same.
func TestFastReadingOfWrittenEvents(t *testing.T) {
	data := writtenEvents(t)
	fast, ok, slow, err := record.ReadEventsBothWays(data)
	if !ok {
		t.Fatal("the fast reader gave up on the encoder's own events")
	}
	sameReadings(t, data, fast, ok, slow, err)
	if len(slow) < 10 {
		t.Fatalf("only %d events written", len(slow))
	}
}

// FuzzFastEventsReading checks the events reader against encoding/json:
// wherever it accepts, encoding/json accepts and reads the same events.
func FuzzFastEventsReading(f *testing.F) {
	f.Add(writtenEvents(f))
	f.Add([]byte(`[{"type":"t","payload":null,"meta":{"runId":"r","runtimeStageId":"s#1","subflowPath":"","wallClockMs":-1,"runOffsetMs":0,"turnIndex":0,"iterIndex":3,"compositionPath":[],"traceId":"a","spanId":"b","sessionId":"s","principal":"p","tenant":"t"}}]`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fast, ok, slow, err := record.ReadEventsBothWays(data)
		sameReadings(t, data, fast, ok, slow, err)
	})
}

// sameReadings fails t when a fast reader accepted data (ok) that
// encoding/json refuses (err) or reads differently.
func sameReadings[T any](t *testing.T, data []byte, fast T, ok bool, slow T, err error) {
	t.Helper()
	if !ok {
		return
	}
	if err != nil {
		t.Fatalf("the fast reader took what encoding/json refuses (%v):\n%q", err, data)
	}
	if d := cmp.Diff(slow, fast); d != "" {
		t.Fatalf("readings differ (-encoding/json +fast):\n%s\n%q", d, data)
	}
}
