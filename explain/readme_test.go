// The README's Go walk-through is Example_conversation: this test keeps the
// two the same.

package explain_test

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

func TestREADMESnippetIsExampleConversation(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	example, err := os.ReadFile("example_readme_test.go")
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile("(?s)```go\n(disk, err := tool\\.New.*?)```").FindSubmatch(readme)
	if block == nil {
		t.Fatal("README.md has no snippet opening with tool.New")
	}
	// Every code line of the snippet is a line of the example (the README
	// elides error handling with "…"), and every output it shows in a
	// comment is one of the example's output lines.
	ex := string(example)
	for _, line := range strings.Split(string(block[1]), "\n") {
		code, comment, _ := strings.Cut(line, " // ")
		code = strings.TrimSpace(code)
		if code != "" && !strings.Contains(code, "…") && !strings.HasPrefix(code, "//") && !strings.Contains(ex, code) {
			t.Errorf("README line %q is not in Example_conversation", code)
		}
		if strings.HasPrefix(code, "fmt.Println") && !strings.Contains(ex, "\t// "+comment+"\n") {
			t.Errorf("README output %q is not an output line of Example_conversation", comment)
		}
	}
}
