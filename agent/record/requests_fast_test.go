package record_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// writtenRequests is the "requests" member of a record the agent wrote: a
// turn of six model calls, whose later requests are kept as deltas.
func writtenRequests(tb testing.TB) []byte {
	tb.Helper()
	var replies []scripted.Reply
	for i := range 5 {
		replies = append(replies, scripted.Reply{ToolCalls: []llm.ToolCall{{ID: fmt.Sprintf("c%d", i), Name: "fetch_logs", Args: json.RawMessage(`{}`)}}})
	}
	logs := tool.Must(tool.New("fetch_logs", "Fetch a page of logs.", func(context.Context, struct{}) (string, error) {
		return strings.Repeat("checkout error rate 12%, upstream reset\n", 20), nil
	}))
	a, err := agent.New(scripted.New(append(replies, scripted.Reply{Content: "Done."})...), agent.WithTools(logs))
	if err != nil {
		tb.Fatal(err)
	}
	res, err := a.Run(context.Background(), agent.Input{Message: "Read the logs."})
	if err != nil {
		tb.Fatal(err)
	}
	m := memberOf(tb, res.Record, "requests")
	if len(m) < 100 {
		tb.Fatalf("the run kept no request deltas: %s", m)
	}
	return m
}

// TestFastRequestsReading checks the reader takes what the encoder writes,
// and reads it as encoding/json does.
func TestFastRequestsReading(t *testing.T) {
	data := writtenRequests(t)
	fast, ok, slow, err := record.ReadRequestsBothWays(data)
	if !ok {
		t.Fatal("the fast reader gave up on the encoder's own requests")
	}
	sameReadings(t, data, fast, ok, slow, err)
	if len(fast) < 4 {
		t.Fatalf("%d deltas read, want at least 4", len(fast))
	}
}

func FuzzFastRequestsReading(f *testing.F) {
	f.Add(writtenRequests(f))
	f.Add([]byte(`{"ab":{"base":"sha256:00","keep":300,"tail":"sha256:11","reuse":2},"ab":{"base":"x","keep":0,"tail":"y"}}`))
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"a":{"keep":-1,"Tail":"t"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fast, ok, slow, err := record.ReadRequestsBothWays(data)
		sameReadings(t, data, fast, ok, slow, err)
	})
}
