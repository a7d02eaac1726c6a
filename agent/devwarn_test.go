// Developer warnings: to the agent's logger only, each once per agent.

package agent

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
)

func TestManyIterationsWarnsOncePerAgent(t *testing.T) {
	var buf bytes.Buffer
	l := slog.New(slog.NewTextHandler(&buf, nil))
	for _, n := range []int{10, 100} {
		if _, err := New(scripted.New(), WithMaxIterations(n), WithLogger(l)); err != nil {
			t.Fatal(err)
		}
	}
	if buf.Len() != 0 {
		t.Fatalf("a budget of 100 or less warned: %s", buf.String())
	}
	a, err := New(scripted.New(), WithMaxIterations(101), WithLogger(l))
	if err != nil {
		t.Fatal(err)
	}
	if a.warn.manyIterations(101) {
		t.Error("the same agent warned twice")
	}
	out := buf.String()
	if strings.Count(out, "level=WARN") != 1 || !strings.Contains(out, "maxIterations=101") {
		t.Errorf("log = %q, want one warning naming maxIterations=101", out)
	}
	// Without a logger, nothing is logged and nothing fails.
	if _, err := New(scripted.New(), WithMaxIterations(500)); err != nil {
		t.Fatal(err)
	}
}
