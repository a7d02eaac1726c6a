// A stored long run for measuring explain: with AF_LONG_RUN_OUT set, the
// test writes the record of one 200-call turn with 2 KB tool results there,
// the file docs/PERFORMANCE.md times `agentfootprint explain` on.

package agent_test

import (
	"encoding/json"
	"os"
	"testing"
)

func TestWriteLongRun(t *testing.T) {
	out := os.Getenv("AF_LONG_RUN_OUT")
	if out == "" {
		t.Skip("set AF_LONG_RUN_OUT=path to write the 200-call record explain is measured on")
	}
	rec, _ := runCalls(t, "scripted", 200)
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
