package inputs_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/honesty/inputs"
)

func TestPauseWireForm(t *testing.T) {
	p := inputs.PauseData{
		RequestID: "t1-i1-r1",
		Question:  "q",
		Fields:    []inputs.Field{{ID: "f1", Type: "string", Description: "which region", Enum: []any{"eu", "us"}}, {ID: "f2", Type: "integer", Description: "how many"}},
		Context:   map[string]any{"agentfootprint": map[string]any{"ask": "arguments"}},
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"requestId":"t1-i1-r1","question":"q","fields":[{"id":"f1","type":"string","description":"which region","enum":["eu","us"]},{"id":"f2","type":"integer","description":"how many"}],"context":{"agentfootprint":{"ask":"arguments"}}}`
	if string(b) != want {
		t.Errorf("PauseData JSON\n got %s\nwant %s", b, want)
	}

	var r inputs.Reply
	if err := json.Unmarshal([]byte(`{"requestId":"t1-i1-r1","values":{"f1":"eu","f2":3}}`), &r); err != nil {
		t.Fatal(err)
	}
	wantReply := inputs.Reply{RequestID: "t1-i1-r1", Values: map[string]json.RawMessage{"f1": json.RawMessage(`"eu"`), "f2": json.RawMessage(`3`)}}
	if diff := cmp.Diff(wantReply, r); diff != "" {
		t.Errorf("Reply (-want +got):\n%s", diff)
	}

	a := inputs.Ask{RequestID: "r1", Round: 2, Fields: p.Fields[:1], Bindings: []inputs.Binding{{ID: "f1", Tool: "search", Argument: "region", Calls: []string{"c1", "c2"}}}}
	b, err = json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	var back inputs.Ask
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(a, back); diff != "" {
		t.Errorf("Ask round trip (-want +got):\n%s", diff)
	}
}

// ExampleReply shows an app answering the fields of a paused run's question: one value per
// field id, sent back as the JSON answer of Conversation.Resume.
func ExampleReply() {
	var p inputs.PauseData
	_ = json.Unmarshal([]byte(`{"requestId":"t1-i1-r1","question":"This run needs a few values.","fields":[{"id":"f1","type":"string","description":"which region"}],"context":{}}`), &p)
	r := inputs.Reply{RequestID: p.RequestID, Values: map[string]json.RawMessage{}}
	for _, f := range p.Fields {
		r.Values[f.ID] = json.RawMessage(`"eu"`)
	}
	answer, _ := json.Marshal(r)
	fmt.Println(string(answer))
	// Output: {"requestId":"t1-i1-r1","values":{"f1":"eu"}}
}
