// The README's "Use it in Go" snippet is ExampleRun: this test keeps the two the same.

package scenario

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

func TestREADMESnippetIsExampleRun(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	example, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	literal := regexp.MustCompile("(?s)scenario\\.Parse\\(\\[\\]byte\\(`(\\{.*?\\})`\\)\\)")
	fromREADME := literal.FindSubmatch(readme)
	fromExample := literal.FindAllSubmatch(example, -1)
	if fromREADME == nil || len(fromExample) == 0 {
		t.Fatal("the scenario literal is missing from README.md or example_test.go")
	}
	fields := func(b []byte) string { return strings.Join(strings.Fields(string(b)), " ") }
	if fields(fromREADME[1]) != fields(fromExample[0][1]) {
		t.Errorf("README.md's scenario differs from ExampleRun's:\n%s\n%s", fromREADME[1], fromExample[0][1])
	}
	// The outputs the README shows in comments are ExampleRun's output lines.
	for _, line := range []string{"db-1 is 91% full.", `expect.answerContains[0]: the answer does not contain "95%"`} {
		if !strings.Contains(string(readme), "// "+line) || !strings.Contains(string(example), "// "+line) {
			t.Errorf("%q is not shown in both", line)
		}
	}
}
