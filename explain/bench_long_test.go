// What `agentfootprint explain` does on a stored 200-call run (2 KB tool
// results): decode the record's JSON, walk the chain back from the answer,
// print it and the ranking's confidence.

package explain_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/explain"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// longRunJSON is the encoded record of one turn of calls model calls, each
// but the last asking for a 2 KB page of logs.
func longRunJSON(tb testing.TB, calls int) []byte {
	tb.Helper()
	var rs []scripted.Reply
	for i := 1; i < calls; i++ {
		rs = append(rs, scripted.Reply{ToolCalls: []llm.ToolCall{{ID: fmt.Sprintf("c%d", i), Name: "fetch_logs", Args: json.RawMessage(fmt.Sprintf(`{"page":%d}`, i))}}})
	}
	logs := tool.Must(tool.New("fetch_logs", "Fetch one page of logs.", func(_ context.Context, in struct {
		Page int `json:"page"`
	}) (string, error) {
		return strings.Repeat(fmt.Sprintf("page %d: checkout error rate 12%%, upstream reset\n", in.Page), 40), nil
	}))
	a, err := agent.New(scripted.New(append(rs, scripted.Reply{Content: "Done."})...), agent.WithTools(logs),
		agent.WithSystemPrompt("You read logs page by page."), agent.WithMaxIterations(calls+1))
	if err != nil {
		tb.Fatal(err)
	}
	res, err := a.Run(context.Background(), agent.Input{Message: "Read every page."})
	if err != nil {
		tb.Fatal(err)
	}
	b, err := json.Marshal(res.Record)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// BenchmarkExplainStoredRun is the CLI's explain on a 200-call record, from
// its bytes to the printed chain and ranking.
func BenchmarkExplainStoredRun(b *testing.B) {
	data := longRunJSON(b, 200)
	b.ReportAllocs()
	b.ReportMetric(float64(len(data)), "record-bytes")
	for b.Loop() {
		rec, err := record.Decode(data)
		if err != nil {
			b.Fatal(err)
		}
		ch, err := explain.Backtrack(rec, explain.Target{})
		if err != nil {
			b.Fatal(err)
		}
		if err := ch.WriteText(io.Discard); err != nil {
			b.Fatal(err)
		}
		// The CLI takes the ranking's confidence from the chain's scores.
		ranked := make([]explain.Ranked, len(ch.Suspects))
		for i, s := range ch.Suspects {
			ranked[i] = explain.Ranked{ID: s.Unit, Score: s.Score}
		}
		explain.RankingConfidence(ranked)
	}
}
