package wire

import (
	"encoding/json"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/llm"
)

func TestWriterSpansUnescape(t *testing.T) {
	texts := []string{"plain", `quote " and \ back`, "<>&", "line\u2028sep\u2029", "ctl\x00\x01\x1f\t\r\n", "emoji 😀 ok", "bad \xff utf8", ""}
	for _, txt := range texts {
		w := NewWriter(64)
		w.BeginObject()
		w.Key("system")
		w.Segments([]llm.Segment{{Unit: "a", Text: txt}, {Unit: "b", Text: "second " + txt}})
		w.Key("m")
		w.BeginArray()
		w.StringSpan(txt, "m0", llm.SpanMessage)
		at := w.Elem()
		w.BeginObject()
		w.Key("x")
		w.Int(1)
		w.EndObject()
		w.AddSpan("tool/x", llm.SpanToolSchema, at, w.Mark())
		w.EndArray()
		w.EndObject()
		if !json.Valid(w.B) {
			t.Fatalf("invalid JSON for %q: %s", txt, w.B)
		}
		for _, sp := range w.Spans {
			frag := w.B[sp.Start:sp.End]
			if sp.Kind == llm.SpanToolSchema {
				if string(frag) != `{"x":1}` {
					t.Errorf("tool span = %s", frag)
				}
				continue
			}
			var got string
			if err := json.Unmarshal(append(append([]byte{'"'}, frag...), '"'), &got); err != nil {
				t.Fatalf("span %s not a string body: %v", sp.Unit, err)
			}
			want := txt
			if sp.Unit == "b" {
				want = "second " + txt
			}
			if txt == "bad \xff utf8" {
				continue // invalid UTF-8 is replaced, by design
			}
			if got != want {
				t.Errorf("span %s: got %q want %q", sp.Unit, got, want)
			}
		}
	}
}
