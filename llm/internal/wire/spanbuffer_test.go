package wire

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/llm"
)

func spanRequest() *llm.Request {
	return &llm.Request{
		System:   []llm.Segment{{Unit: "system", Text: "You triage."}},
		Messages: []llm.Message{{Role: llm.RoleUser, Content: "What broke?", Unit: "history/0"}, {Role: llm.RoleAssistant, Content: "Looking.", Unit: "history/1"}},
		Tools:    []llm.ToolSchema{{Name: "status", Description: "Reads a status."}},
	}
}

// A request's SpanBuffer with room is where the spans go, and the spans
// and bytes are those an encoding without it gives; a buffer too small is
// left alone; a clone of the request does not share it.
func TestSpanBufferHoldsTheSpans(t *testing.T) {
	plain := spanRequest()
	wantBody, wantSpans, err := Canonical(plain)
	if err != nil {
		t.Fatal(err)
	}
	if len(wantSpans) != 4 {
		t.Fatalf("the request has %d spans, want 4", len(wantSpans))
	}

	room := make([]llm.Span, 0, 8)
	req := spanRequest()
	req.SpanBuffer = room
	body, spans, err := Canonical(req)
	if err != nil {
		t.Fatal(err)
	}
	if string(body) != string(wantBody) {
		t.Errorf("body with a span buffer differs:\n%s\nwant\n%s", body, wantBody)
	}
	if d := cmp.Diff(wantSpans, spans); d != "" {
		t.Errorf("spans with a span buffer differ (-want +got):\n%s", d)
	}
	if &spans[0] != &room[:1][0] {
		t.Error("Canonical did not write the spans into the request's SpanBuffer")
	}
	if w := StartBody(req, "m"); cap(w.Spans) != cap(room) || &w.Spans[:1][0] != &room[:1][0] {
		t.Error("StartBody did not start its span list in the request's SpanBuffer")
	}

	small := make([]llm.Span, 0, 2)
	req.SpanBuffer = small
	_, spans, err = Canonical(req)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(wantSpans, spans); d != "" {
		t.Errorf("spans with a small buffer differ (-want +got):\n%s", d)
	}
	if got := small[:cap(small)]; got[0] != (llm.Span{}) || got[1] != (llm.Span{}) {
		t.Errorf("a buffer without room was written: %v", got)
	}

	req.SpanBuffer = room
	if c := req.Clone(); c.SpanBuffer != nil {
		t.Error("Clone kept the SpanBuffer")
	}
}
