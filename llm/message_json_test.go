package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// plainMessage decodes as Message did before it had UnmarshalJSON.
type plainMessage Message

// readBothWays decodes data into a copy of into with Message's
// UnmarshalJSON and with plain encoding/json.
func readBothWays(data []byte, into Message) (fast, slow Message, fastErr, slowErr error) {
	fast, slow = into, into
	if into.ToolCalls != nil {
		fast.ToolCalls = append([]ToolCall(nil), into.ToolCalls...)
		slow.ToolCalls = append([]ToolCall(nil), into.ToolCalls...)
	}
	fastErr = json.Unmarshal(data, &fast)
	slowErr = json.Unmarshal(data, (*plainMessage)(&slow))
	if slowErr != nil {
		// How the error read before Message had UnmarshalJSON.
		slowErr = errors.New(strings.ReplaceAll(slowErr.Error(), "plainMessage", "Message"))
	}
	return
}

func TestMessageReadsItsWrittenForm(t *testing.T) {
	msgs := []Message{
		{Role: RoleUser, Content: "What is broken?"},
		{Role: RoleAssistant, Content: "Checking.", ToolCalls: []ToolCall{
			{ID: "c1", Name: "status", Args: json.RawMessage(`{"service":"checkout"}`)},
			{ID: "c2", Name: "status", Args: json.RawMessage(`"not an object"`), ArgsError: "arguments must be a JSON object, got a string"},
		}},
		{Role: RoleTool, ToolCallID: "c1", ToolName: "status", Content: `{"rows":[{"msg":"a \"quoted\"\nline","é":"\u2028"}]}`, IsError: true, Unit: "history/3"},
		{Role: RoleAssistant, ToolCalls: []ToolCall{}},
	}
	for i, m := range msgs {
		data, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := readMessage(data); !ok {
			t.Errorf("message %d: the hand reader gave up on the written form %s", i, data)
		}
		fast, slow, ferr, serr := readBothWays(data, Message{})
		if ferr != nil || serr != nil {
			t.Fatalf("message %d: %v / %v", i, ferr, serr)
		}
		if d := cmp.Diff(slow, fast); d != "" {
			t.Errorf("message %d reads differently (-encoding/json +UnmarshalJSON):\n%s", i, d)
		}
		var back Message
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatal(err)
		}
		again, _ := json.Marshal(back)
		if string(again) != string(data) {
			t.Errorf("message %d does not round-trip:\n%s\n%s", i, data, again)
		}
	}
}

func TestMessageLeavesOtherFormsToEncodingJSON(t *testing.T) {
	full := Message{Role: RoleTool, Content: "kept", ToolCallID: "old", ToolCalls: []ToolCall{{ID: "x", Name: "n", Args: json.RawMessage(`{}`)}}}
	for _, tc := range []struct {
		data string
		into Message
	}{
		{`{"Role":"user","CONTENT":"case differs"}`, Message{}},
		{`{"role":"user","content":null}`, Message{}},
		{`{"role":"user","role":"tool"}`, Message{}},
		{`{"role":"user","extra":1}`, Message{}},
		{`{"role":"user","toolCalls":null}`, full},
		{`{"content":"merged"}`, full},
		{`{"toolCalls":[{"id":"y","name":"m","args":{"a":1}}]}`, full},
		{`{"role":1}`, Message{}},
		{`{"isError":"yes"}`, Message{}},
		{`{"toolCalls":[{"id":"y","args":{},"argsText":"x"}]}`, Message{}},
		{`null`, full},
		{`[]`, Message{}},
		{` {"role" : "user" } `, Message{}},
	} {
		fast, slow, ferr, serr := readBothWays([]byte(tc.data), tc.into)
		if fmt.Sprint(ferr) != fmt.Sprint(serr) {
			t.Errorf("%s: errors differ: %v / %v", tc.data, ferr, serr)
		}
		if d := cmp.Diff(slow, fast); d != "" {
			t.Errorf("%s reads differently (-encoding/json +UnmarshalJSON):\n%s", tc.data, d)
		}
	}
}

// FuzzMessageJSON checks that Message's own reader reads every input as
// encoding/json reads it into the same struct: the same value, and an
// error exactly when encoding/json has one, with the same text.
func FuzzMessageJSON(f *testing.F) {
	for _, s := range []string{
		`{"role":"assistant","content":"a\"b","toolCalls":[{"id":"c1","name":"n","args":{"k":"v"}}]}`,
		`{"role":"tool","toolCallId":"c1","toolName":"n","content":"\ud83d\ude00 \ud800","isError":true,"unit":"history/1"}`,
		`{"role":"user","content":"x","toolCalls":[]}`,
		`{"ROLE":"user"}`, `{"role":null}`, `{"toolCalls":[{"argsText":"{"}]}`, "{\"content\":\"\xff\"}",
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, prefilled bool) {
		var into Message
		if prefilled {
			into = Message{Role: RoleUser, Content: "before", ToolCalls: []ToolCall{{ID: "p", Name: "q", Args: json.RawMessage(`{}`)}}}
		}
		fast, slow, ferr, serr := readBothWays(data, into)
		if fmt.Sprint(ferr) != fmt.Sprint(serr) {
			t.Fatalf("%q: errors differ: %v / %v", data, ferr, serr)
		}
		if d := cmp.Diff(slow, fast); d != "" {
			t.Fatalf("%q reads differently (-encoding/json +UnmarshalJSON):\n%s", data, d)
		}
		if json.Valid(data) {
			// Called directly, as a decoder of checked JSON calls it.
			direct, _, _, _ := readBothWays(nil, into)
			derr := direct.UnmarshalJSON(data)
			if (derr == nil) != (serr == nil) {
				t.Fatalf("%q: called directly: %v, encoding/json: %v", data, derr, serr)
			}
			if d := cmp.Diff(slow, direct); d != "" {
				t.Fatalf("%q reads differently called directly (-encoding/json +UnmarshalJSON):\n%s", data, d)
			}
		}
	})
}
