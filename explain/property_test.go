// Property: for unit texts full of JSON-hostile characters the chain finds
// every unit's span, the unescaped span equals the born text (no
// content-hash-mismatch), and hash-only capture is flagged, not guessed.

package explain_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/explain"
	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
)

func hostileText(r *rand.Rand) string {
	alphabet := []string{"a", "Z", " ", `"`, `\`, "<", ">", "&", "\u2028", "\u2029", "\x01", "\x1f", "\t", "\n", "😀", "é", "/", "\\u0041"}
	var b strings.Builder
	for range 1 + r.IntN(40) {
		b.WriteString(alphabet[r.IntN(len(alphabet))])
	}
	return b.String()
}

func TestPropertySpansMatchBornText(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for i := range 60 {
		texts := []string{hostileText(r), hostileText(r)}
		units := []*inject.Unit{inject.Must(inject.Fact("f1", texts[0])), inject.Must(inject.Steering("s1", texts[1], inject.WithMessageSlot("user")))}
		capture := record.CaptureFull
		if i%5 == 0 {
			capture = record.CaptureHashOnly
		}
		a, err := agent.New(scripted.New(scripted.Reply{Content: "ok " + texts[0]}), agent.WithUnits(units...), agent.WithCapture(capture))
		if err != nil {
			t.Fatal(err)
		}
		res, err := a.Run(context.Background(), agent.Input{Message: hostileText(r)})
		if err != nil {
			t.Fatal(err)
		}
		ch, err := explain.Backtrack(res.Record, explain.Target{})
		if err != nil {
			t.Fatal(err)
		}
		if len(ch.Suspects) != 2 {
			t.Fatalf("case %d: %d suspects", i, len(ch.Suspects))
		}
		for _, s := range ch.Suspects {
			if s.Landed.Span == nil {
				t.Errorf("case %d: %s has no span", i, s.Unit)
			}
		}
		wantFlags := []string{}
		if capture == record.CaptureHashOnly {
			wantFlags = []string{"request-hash-only"}
		}
		if !slices.Equal(ch.Flags, wantFlags) {
			t.Errorf("case %d (%s): flags %v, want %v; texts %q", i, capture, ch.Flags, wantFlags, texts)
		}
	}
}

// TestContentHashMismatchFlagged: a request blob whose span no longer holds
// the born text is flagged, never silently accepted.
func TestContentHashMismatchFlagged(t *testing.T) {
	r := newRefunds(t)
	rec := r.run(t, refundsModel(false))
	ch, err := explain.Backtrack(rec, explain.Target{})
	if err != nil {
		t.Fatal(err)
	}
	sp := ch.Suspects[0].Landed.Span
	body, ok := rec.Blob(sp.RequestSha256)
	if !ok {
		t.Fatal("no request blob")
	}
	edited := slices.Clone(body)
	edited[sp.Start] = 'X'
	rec.Blobs[sp.RequestSha256] = edited
	ch, err = explain.Backtrack(rec, explain.Target{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(ch.Flags, "content-hash-mismatch") {
		t.Errorf("flags = %v, want content-hash-mismatch", ch.Flags)
	}
}
