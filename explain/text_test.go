package explain_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/explain"
)

// failAfter accepts n bytes, then refuses every write.
type failAfter struct {
	n   int
	got bytes.Buffer
}

var errFull = errors.New("disk full")

func (f *failAfter) Write(p []byte) (int, error) {
	if room := f.n - f.got.Len(); len(p) > room {
		f.got.Write(p[:max(room, 0)])
		return max(room, 0), errFull
	}
	return f.got.Write(p)
}

// TestWriteTextMatchesString checks WriteText writes exactly String's text,
// and that a writer refusing part way makes it return that writer's error
// after the bytes the writer took.
func TestWriteTextMatchesString(t *testing.T) {
	ch, err := explain.Backtrack(exampleRecord(), explain.Target{})
	if err != nil {
		t.Fatal(err)
	}
	want := ch.String()
	if len(ch.Suspects) == 0 || len(want) < 200 {
		t.Fatalf("the example chain is too small to test with: %d suspects, %d bytes", len(ch.Suspects), len(want))
	}
	var buf bytes.Buffer
	if err := ch.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	if buf.String() != want {
		t.Errorf("WriteText wrote\n%s\nString returns\n%s", buf.String(), want)
	}
	w := &failAfter{n: 100}
	if err := ch.WriteText(w); !errors.Is(err, errFull) {
		t.Errorf("WriteText to a writer that fails after 100 bytes: %v, want %v", err, errFull)
	}
	if got := w.got.String(); got != want[:100] {
		t.Errorf("before failing the writer took %q, want %q", got, want[:100])
	}
}
