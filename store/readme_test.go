// The README's "keep a run" snippet is ExampleSaveResult: this test keeps the two the same.

package store_test

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

func TestREADMESnippetIsExampleSaveResult(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	example, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile("(?s)```go\n(st, err := sqlite\\.Open.*?)```").FindSubmatch(readme)
	if block == nil {
		t.Fatal("README.md has no snippet opening with sqlite.Open")
	}
	// Every code line of the snippet is a line of the example; the README elides error
	// handling with "…" and shows outputs as comments.
	ex := string(example)
	for _, line := range strings.Split(string(block[1]), "\n") {
		code, comment, _ := strings.Cut(line, " // ")
		code = strings.TrimSpace(code)
		if code == "" || strings.Contains(code, "…") {
			continue
		}
		if !strings.Contains(ex, code) {
			t.Errorf("README line %q is not in ExampleSaveResult", code)
		}
		if comment != "" && strings.HasPrefix(comment, "complete ") && !strings.Contains(ex, "// "+comment) {
			t.Errorf("README output %q is not ExampleSaveResult's", comment)
		}
	}
}
