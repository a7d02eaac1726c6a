// Tests of DecodeAblation, the reader of `agentfootprint ablate --json`.

package lens_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/explain"
	"github.com/agentfootprint/agentfootprint-go/lens"
	"github.com/google/go-cmp/cmp"
)

func TestDecodeAblation(t *testing.T) {
	want := explain.Report{Format: explain.AblationFormat, Mode: "counterfactual", Samples: 3, Seeds: []int64{1, 2, 3},
		Suspects: []explain.SuspectReport{{ID: "recent_deploys", Kind: "tool", Verdict: explain.VerdictConfirmed, Flips: 3, Samples: 3}},
		Flags:    []string{}}
	data, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	got, err := lens.DecodeAblation(data)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, *got); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	for _, c := range []struct{ in, err string }{
		{`{"format":"agentfootprint-go.backtrack/1"}`, `format "agentfootprint-go.backtrack/1" is not`},
		{`[]`, "cannot unmarshal array"},
		{`{"format":`, "unexpected end"},
		{strings.Repeat(" ", lens.MaxAblationBytes+1), "more than the"},
	} {
		if _, err := lens.DecodeAblation([]byte(c.in)); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("DecodeAblation(%.40q) = %v, want an error with %q", c.in, err, c.err)
		}
	}
}

func FuzzDecodeAblation(f *testing.F) {
	f.Add([]byte(`{"format":"agentfootprint-go.ablation/1","suspects":[{"id":"x","kind":"unit","verdict":"confirmed"}]}`))
	f.Add([]byte(`{"format":"agentfootprint-go.ablation/1","suspects":null}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rep, err := lens.DecodeAblation(data)
		if err != nil {
			return
		}
		if rep.Format != explain.AblationFormat {
			t.Fatalf("accepted format %q", rep.Format)
		}
	})
}
