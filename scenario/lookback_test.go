// Tests for the demo's second part, the clamped look-back.

package scenario

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
)

// The file in the binary is examples/clamped-lookback.json, and that is the file the docs
// show (docs/scenarios/clamped-lookback.json), apart from the relative $schema path.
func TestLookbackDemoFileIsTheExample(t *testing.T) {
	b, err := os.ReadFile("examples/clamped-lookback.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, LookbackDemoFile()) {
		t.Error("LookbackDemoFile differs from examples/clamped-lookback.json")
	}
	docs, err := os.ReadFile("../docs/scenarios/clamped-lookback.json")
	if err != nil {
		t.Skipf("docs copy absent: %v", err)
	}
	docs = bytes.Replace(docs, []byte(`"../../scenario/scenario.schema.json"`), []byte(`"../scenario.schema.json"`), 1)
	if !bytes.Equal(b, docs) {
		t.Error("examples/clamped-lookback.json and docs/scenarios/clamped-lookback.json differ beyond $schema")
	}
}

func TestLookbackDemoRuns(t *testing.T) {
	f, err := LookbackDemo()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	if ms := rep.Check(); len(ms) > 0 {
		t.Errorf("expectations: %v", ms)
	}
	if !strings.Contains(rep.Answer, "search_logs read less than was asked") {
		t.Errorf("the answer lacks the line the person reads:\n%s", rep.Answer)
	}
}
