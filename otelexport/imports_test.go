// This file checks the packaging rule: no package outside this one and the
// command imports OpenTelemetry, so a user who does not export pays nothing.

package otelexport_test

import (
	"os/exec"
	"strings"
	"testing"
)

func TestCoreImportsNoOTel(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH; the import rule is checked where it is")
	}
	out, err := exec.Command(gobin, "list", "-deps", "-f", "{{.ImportPath}}",
		"github.com/agentfootprint/agentfootprint-go/agent",
		"github.com/agentfootprint/agentfootprint-go/flow",
		"github.com/agentfootprint/agentfootprint-go/event",
		"github.com/agentfootprint/agentfootprint-go/tool",
		"github.com/agentfootprint/agentfootprint-go/coverage",
		"github.com/agentfootprint/agentfootprint-go/inject",
		"github.com/agentfootprint/agentfootprint-go/llm/...",
		"github.com/agentfootprint/agentfootprint-go/honesty/...",
		"github.com/agentfootprint/agentfootprint-go/store/...",
		"github.com/agentfootprint/agentfootprint-go/explain",
		"github.com/agentfootprint/agentfootprint-go/scenario",
	).CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "go.opentelemetry.io/") {
			t.Errorf("a core package depends on %s", line)
		}
	}
}
