// Runnable example: definition sites, and CallerSkip in a helper.

package tool_test

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/agentfootprint/agentfootprint-go/tool"
)

type echoIn struct {
	Text string `json:"text"`
}

// newEcho defines a tool for its caller; WithCallerSkip(1) records the
// caller's line instead of this one.
func newEcho(name string) *tool.Tool {
	return tool.Must(tool.New(name, "Repeat the text.", func(_ context.Context, in echoIn) (string, error) {
		return in.Text, nil
	}, tool.WithCallerSkip(1)))
}

// A tool remembers where it was defined; the agent copies the site into the
// record's catalog so an explanation can point at the line.
func ExampleWithCallerSkip() {
	t := newEcho("echo")
	s := t.Declaration().DefinedAt
	fmt.Println(filepath.Base(s.File), s.Function)
	// Output:
	// example_site_test.go github.com/agentfootprint/agentfootprint-go/tool_test.ExampleWithCallerSkip
}
