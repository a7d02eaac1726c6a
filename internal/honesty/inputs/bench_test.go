package inputs_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/internal/honesty/inputs"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// BenchmarkResolve measures the resolve table over a batch of four calls to
// a tool with one assume rule.
func BenchmarkResolve(b *testing.B) {
	search := tool.Must(tool.New("search_logs", "s", func(context.Context, searchIn) (string, error) { return "", nil },
		tool.WithAskOrAssume(map[string]tool.Rule{"window": {Assume: "2h"}})))
	of := toolsOf(search)
	calls := []inputs.Call{
		{ID: "c1", Name: "search_logs", Args: json.RawMessage(`{"service":"a"}`)},
		{ID: "c2", Name: "search_logs", Args: json.RawMessage(`{"service":"b","window":"2h"}`)},
		{ID: "c3", Name: "search_logs", Args: json.RawMessage(`{"service":"c","window":"24h"}`)},
		{ID: "c4", Name: "search_logs", Args: json.RawMessage(`{"service":"d"}`)},
	}
	st := inputs.Stamp{Turn: 1, Iteration: 1}
	b.ReportAllocs()
	for b.Loop() {
		if got := inputs.Resolve(calls, of, st); len(got.Rows) != 4 {
			b.Fatal(len(got.Rows))
		}
	}
}
