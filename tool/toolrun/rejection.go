// This file holds the rejection: the issues validation found, as the
// record keeps them and the model reads them.

package toolrun

import (
	"fmt"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/tool"
)

// maxIssues is how many issues a Rejection lists; the rest are counted.
const maxIssues = 20

// Rejection is the outcome of a validation that found issues: every leaf
// issue sorted by path, keyword and expectation, the first maxIssues of
// them listed.
type Rejection struct {
	// Tool is the name of the tool whose arguments were checked.
	Tool string `json:"tool"`
	// Issues lists at most maxIssues issues, sorted.
	Issues []tool.Issue `json:"issues"`
	// Total counts every issue found, listed or not.
	Total int `json:"total"`
	// ParseError is the parse error the dispatcher passed as ArgsError,
	// when the arguments were not JSON.
	ParseError string `json:"parseError,omitempty"`
}

// Stops reports whether the rejection keeps the call from running under
// mode: always in tool.ModeEnforce, and in every mode when the arguments were not
// JSON at all (there is nothing to run the tool on). A nil Rejection stops
// nothing.
func (r *Rejection) Stops(mode tool.Mode) bool {
	if r == nil {
		return false
	}
	return mode == tool.ModeEnforce || mode == "" || r.ParseError != ""
}

// omitted is how many issues were found beyond those listed.
func (r *Rejection) omitted() int { return r.Total - len(r.Issues) }

// Error renders the rejection on one line, so a Rejection can travel as an
// error.
func (r *Rejection) Error() string {
	return fmt.Sprintf("tool %q: arguments rejected: %d issue(s)", r.Tool, r.Total)
}

// Text renders the rejection for the model: one sentence saying the tool
// did not run, then one line per issue, then the count of issues left out.
// The wording is the project's own; values are never shown.
func (r *Rejection) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "The %s tool was not run: its arguments do not match its input schema (%d issue", r.Tool, r.Total)
	if r.Total != 1 {
		b.WriteByte('s')
	}
	b.WriteString("). Correct all of them and call it again.")
	if r.ParseError != "" {
		b.WriteString("\nThe arguments were not valid JSON: ")
		b.WriteString(r.ParseError)
	}
	for _, is := range r.Issues {
		path := is.Path
		if path == "" {
			path = "(the arguments object)"
		}
		fmt.Fprintf(&b, "\n- %s: %s expects %s, got %s", path, is.Keyword, is.Expected, is.Got)
	}
	if n := r.omitted(); n > 0 {
		fmt.Fprintf(&b, "\n- and %d more issue(s) not listed", n)
	}
	return b.String()
}

// reject gathers sorted issues into a Rejection listing the first
// maxIssues, or returns nil when there are none.
func reject(toolName string, issues []tool.Issue) *Rejection {
	if len(issues) == 0 {
		return nil
	}
	total := len(issues)
	if len(issues) > maxIssues {
		issues = issues[:maxIssues:maxIssues]
	}
	return &Rejection{Tool: toolName, Issues: issues, Total: total}
}

func unparsable(toolName, why string) *Rejection {
	return &Rejection{
		Tool:       toolName,
		Issues:     []tool.Issue{{Path: "", Keyword: "json", Expected: "one JSON object", Got: "unparsable"}},
		Total:      1,
		ParseError: why,
	}
}
