package llm

import (
	"encoding/json"
	"errors"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestParseArgs(t *testing.T) {
	tests := []struct {
		name, raw, want, wantErr string
	}{
		{"empty", "", "{}", ""},
		{"spaces", "  \n", "{}", ""},
		{"null", "null", "{}", ""},
		{"object", ` {"a":1} `, `{"a":1}`, ""},
		{"truncated", `{"a":`, `"{\"a\":"`, "arguments are not valid JSON: unexpected end of JSON input"},
		{"array", `[1]`, `"[1]"`, "arguments must be a JSON object, got an array"},
		{"string", `"x"`, `"\"x\""`, "arguments must be a JSON object, got a string"},
		{"number", `12`, `"12"`, "arguments must be a JSON object, got a number"},
		{"bool", `true`, `"true"`, "arguments must be a JSON object, got a boolean"},
		{"garbage", `not json`, `"not json"`, "arguments are not valid JSON: invalid character 'o' in literal null (expecting 'u')"},
		// The input that lost runs (issue 12 item 1): refused, held as a string.
		{"prose with a brace", `this is {not json`, `"this is {not json"`, "arguments are not valid JSON: invalid character 'h' in literal true (expecting 'r')"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, gotErr := ParseArgs([]byte(tt.raw))
			if string(got) != tt.want || gotErr != tt.wantErr {
				t.Errorf("ParseArgs(%q) = %q, %q; want %q, %q", tt.raw, got, gotErr, tt.want, tt.wantErr)
			}
			c := ToolCall{Args: got, ArgsError: gotErr}
			if gotErr != "" && c.RawArgs() != tt.raw {
				t.Errorf("RawArgs() = %q, want the model's text %q", c.RawArgs(), tt.raw)
			}
		})
	}
}

func FuzzParseArgs(f *testing.F) {
	for _, s := range []string{"", "{}", `{"a":`, "[1]", "\"x\"", "nul", " \t"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		args, msg := ParseArgs(raw)
		if msg == "" {
			if !json.Valid(args) || args[0] != '{' {
				t.Fatalf("accepted %q as %q", raw, args)
			}
			return
		}
		if !json.Valid(args) {
			t.Fatalf("refused args %q held as %q, which is not JSON", raw, args)
		}
		if kept := (ToolCall{Args: args, ArgsError: msg}).RawArgs(); utf8.Valid(raw) && kept != string(raw) {
			t.Fatalf("raw not kept: %q vs %q", kept, raw)
		}
		// A call with bad args must survive a JSON round trip unchanged.
		c := ToolCall{ID: "i", Name: "n", Args: args, ArgsError: msg}
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		var back ToolCall
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if !utf8.Valid(raw) {
			return // the JSON form replaces invalid UTF-8 with U+FFFD, by design
		}
		if string(back.Args) != string(c.Args) || back.ArgsError != c.ArgsError {
			t.Fatalf("round trip: %+v vs %+v", back, c)
		}
	})
}

func TestToolCallJSON(t *testing.T) {
	tests := []struct {
		name string
		in   ToolCall
		want string
	}{
		{"object", ToolCall{ID: "1", Name: "f", Args: json.RawMessage(`{"a":1}`)}, `{"id":"1","name":"f","args":{"a":1}}`},
		{"raw text", ToolCall{ID: "1", Name: "f", Args: json.RawMessage(`"{\"a\":"`), ArgsError: "bad"}, `{"id":"1","name":"f","argsText":"{\"a\":","argsError":"bad"}`},
		{"array", ToolCall{ID: "1", Name: "f", Args: json.RawMessage(`"[1]"`), ArgsError: "arguments must be a JSON object, got an array"}, `{"id":"1","name":"f","argsText":"[1]","argsError":"arguments must be a JSON object, got an array"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tt.want {
				t.Errorf("marshal = %s, want %s", b, tt.want)
			}
			var back ToolCall
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.in, back); diff != "" {
				t.Errorf("round trip (-in +out):\n%s", diff)
			}
		})
	}
	var c ToolCall
	if err := json.Unmarshal([]byte(`{"id":"1","name":"f","args":[2]}`), &c); err != nil {
		t.Fatal(err)
	}
	if c.ArgsError != "arguments must be a JSON object, got an array" {
		t.Errorf("hand-written array args not flagged: %+v", c)
	}
	if err := json.Unmarshal([]byte(`{"name":"f","args":{},"argsText":"x"}`), &c); err == nil {
		t.Error("args and argsText together accepted")
	}
}

func TestRequestCloneIsDeep(t *testing.T) {
	temp, seed := 0.5, int64(7)
	r := &Request{Model: "m", System: []Segment{{Unit: "u", Text: "s"}},
		Messages:    []Message{{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "1", Name: "f", Args: json.RawMessage(`{}`)}}}},
		Tools:       []ToolSchema{{Name: "f", InputSchema: json.RawMessage(`{"type":"object"}`)}},
		Temperature: &temp, Seed: &seed, Stop: []string{"x"}}
	c := r.Clone()
	if diff := cmp.Diff(r, c); diff != "" {
		t.Fatalf("clone differs:\n%s", diff)
	}
	c.System[0].Text = "changed"
	c.Messages[0].ToolCalls[0].Args[0] = '['
	c.Tools[0].InputSchema[0] = '['
	*c.Temperature = 1
	*c.Seed = 1
	c.Stop[0] = "y"
	if r.System[0].Text != "s" || r.Messages[0].ToolCalls[0].Args[0] != '{' || r.Tools[0].InputSchema[0] != '{' ||
		*r.Temperature != 0.5 || *r.Seed != 7 || r.Stop[0] != "x" {
		t.Errorf("clone shares memory with the original: %+v", r)
	}
}

func TestSystemText(t *testing.T) {
	got := SystemText([]Segment{{Text: "a"}, {Text: ""}, {Text: "b"}})
	if got != "a\n\nb" {
		t.Errorf("SystemText = %q", got)
	}
}

func TestErrorMatching(t *testing.T) {
	var err error = &Error{Provider: "openai", Kind: KindAuth, Message: "the key was rejected", Cause: errors.New("401")}
	wrapped := errors.Join(errors.New("ctx"), err)
	if KindOf(wrapped) != KindAuth {
		t.Errorf("KindOf = %q", KindOf(wrapped))
	}
	if !errors.Is(wrapped, &Error{Kind: KindAuth}) || errors.Is(wrapped, &Error{Kind: KindServer}) {
		t.Error("errors.Is by kind does not work")
	}
	if err.Error() != "openai: the key was rejected" {
		t.Errorf("Error() = %q", err.Error())
	}
	if KindOf(errors.New("plain")) != "" {
		t.Error("plain error has a kind")
	}
}

func TestCollect(t *testing.T) {
	done := &Response{Content: "hi"}
	seq := func(yield func(StreamEvent, error) bool) {
		_ = yield(StreamEvent{Kind: EventText, Text: "hi"}, nil) && yield(StreamEvent{Kind: EventDone, Response: done}, nil)
	}
	got, err := Collect(seq)
	if err != nil || got != done {
		t.Fatalf("Collect = %v, %v", got, err)
	}
	noDone := func(yield func(StreamEvent, error) bool) { yield(StreamEvent{Kind: EventText, Text: "hi"}, nil) }
	if _, err := Collect(noDone); !errors.Is(err, ErrNoDone) {
		t.Errorf("Collect without done = %v", err)
	}
}
