package explain_test

import (
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/explain"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// TestBornSiteWithoutLine checks the BORN line of a site that has no Go line
// (a tool an MCP server serves): the place is printed without ":0".
func TestBornSiteWithoutLine(t *testing.T) {
	ch, err := explain.Backtrack(exampleRecord(), explain.Target{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ch.Suspects) < 2 {
		t.Fatalf("want two suspects, got %d", len(ch.Suspects))
	}
	ch.Suspects[0].Born.DefinedAt = &tool.Site{File: "mcp server echoer (http: http://127.0.0.1:9)", Function: "tool echo"}
	ch.Suspects[1].Born.DefinedAt = &tool.Site{File: "example.com/ops/units.go", Line: 42, Function: "ops.Units"}
	text := ch.String()
	for _, want := range []string{
		"defined at mcp server echoer (http: http://127.0.0.1:9) (tool echo)\n",
		"defined at example.com/ops/units.go:42 (ops.Units)\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the chain lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, ":0 (") {
		t.Errorf("a site without a line prints :0:\n%s", text)
	}
}
