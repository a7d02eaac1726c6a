// The layering rule of issue 15: mcp depends on nothing of agent, and tool
// and coverage depend on nothing of mcp (transitively, as go list sees it).

package mcp_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

func deps(t *testing.T, pkg string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", pkg).Output()
	if err != nil {
		t.Skipf("go list is not available here: %v", err)
	}
	return strings.Fields(string(out))
}

func TestLayering(t *testing.T) {
	const mod = "github.com/agentfootprint/agentfootprint-go/"
	for _, d := range deps(t, mod+"mcp") {
		if d == mod+"agent" || strings.HasPrefix(d, mod+"agent/") {
			t.Errorf("mcp depends on %s", d)
		}
	}
	for _, p := range []string{"tool", "coverage"} {
		if slices.Contains(deps(t, mod+p), mod+"mcp") {
			t.Errorf("%s depends on mcp", p)
		}
	}
}
