package inputs_test

import (
	"context"
	"encoding/json"
	"testing"

	pubinputs "github.com/agentfootprint/agentfootprint-go/honesty/inputs"
	"github.com/agentfootprint/agentfootprint-go/internal/honesty/inputs"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// FuzzAnswer feeds arbitrary replies to an open question: Answer either
// refuses with an error or settles each field, and never panics.
func FuzzAnswer(f *testing.F) {
	count := tool.Must(tool.New("count", "Count.", func(context.Context, countIn) (int, error) { return 0, nil },
		tool.WithAskOrAssume(map[string]tool.Rule{"limit": {Ask: "How many?"}})))
	of := toolsOf(count)
	calls := []inputs.Call{{ID: "c1", Name: "count", Args: json.RawMessage(`{}`)}}
	st := inputs.Stamp{Turn: 1, Iteration: 1}
	ask, err := inputs.NewAsk(inputs.Resolve(calls, of, st), calls, of, "r1")
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{`{"requestId":"r1","values":{"f1":3}}`, `{"requestId":"r1","values":{"f1":2.5}}`, `{"requestId":"r1","values":{}}`, `[]`, `{"values":{"f1":"x"}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var r pubinputs.Reply
		if json.Unmarshal(data, &r) != nil {
			return
		}
		out, err := inputs.Answer(ask, r, of, st)
		if err != nil {
			return
		}
		if len(out.Rows) != 1 {
			t.Fatalf("one field bound to one call gave %d rows", len(out.Rows))
		}
		if row := out.Rows[0]; (row.Source == "") == (row.Asked == "") {
			t.Fatalf("row has both or neither of source and asked: %+v", row)
		}
	})
}

// FuzzServedSchema: any schema text is either refused or served as JSON.
func FuzzServedSchema(f *testing.F) {
	f.Add([]byte(`{"type":"object","properties":{"w":{"type":"string"}},"required":["w"]}`))
	f.Add([]byte(`{"properties":{"w":1},"required":"w"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := inputs.ServedSchema(data, map[string]tool.Rule{"w": {Assume: "2h"}}, nil)
		if err == nil && !json.Valid(out) {
			t.Fatalf("served invalid JSON %q", out)
		}
	})
}
