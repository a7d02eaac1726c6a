// This file holds the checkpoint door's test for an argument row.

package ledger

import (
	"fmt"
	"math"

	"github.com/agentfootprint/agentfootprint-go/internal/honesty/rowkind"
)

var (
	argumentRules   = []string{"ask", "assume"}
	argumentSources = []string{"said", "answered", "result", "app", "default", "model"}
	argumentAsked   = []string{"missing", "unverified", "invalid-answer"}
)

// ArgumentRowIsWellFormed is the checkpoint door's test for an argument row decoded as JSON.
func ArgumentRowIsWellFormed(row map[string]any) bool { return argumentProblem(row) == "" }

// argumentProblem returns what is wrong with an argument row, or "" when nothing is.
func argumentProblem(row map[string]any) string {
	const need = "an argument row needs kind \"argument\", whole-number turn and iteration, " +
		"non-empty toolCallId, toolName and argument, a rule of ask or assume, and exactly one of " +
		"source or asked"
	if row["kind"] != rowkind.Argument {
		return need
	}
	for _, k := range []string{"turn", "iteration"} {
		if !isWhole(row[k]) {
			return fmt.Sprintf("%s; %s is not a whole number", need, k)
		}
	}
	for _, k := range []string{"toolCallId", "toolName", "argument"} {
		if s, ok := row[k].(string); !ok || s == "" {
			return fmt.Sprintf("%s; %s is missing or empty", need, k)
		}
	}
	if !inWords(row["rule"], argumentRules) {
		return fmt.Sprintf("%s; rule is not one of ask, assume", need)
	}
	_, hasSource := row["source"]
	_, hasAsked := row["asked"]
	if hasSource == hasAsked {
		return fmt.Sprintf("%s; it has %s", need, map[bool]string{true: "both", false: "neither"}[hasSource])
	}
	if hasSource && !inWords(row["source"], argumentSources) {
		return "the argument row's source is not one of said, answered, result, app, default, model"
	}
	if hasAsked && !inWords(row["asked"], argumentAsked) {
		return "the argument row's asked is not one of missing, unverified, invalid-answer"
	}
	for _, k := range []string{"period", "free"} {
		if v, has := row[k]; has && v != true {
			return fmt.Sprintf("the argument row's %s may only be true when present", k)
		}
	}
	for _, k := range []string{"value", "proposed"} {
		if v, has := row[k]; has {
			if _, ok := v.(string); !ok {
				return fmt.Sprintf("the argument row's %s must be text", k)
			}
		}
	}
	return ""
}

// isWhole reports whether v is a JSON number with no fraction that fits an int.
func isWhole(v any) bool {
	f, ok := v.(float64)
	return ok && f == math.Trunc(f) && math.Abs(f) <= 1<<53
}

func inWords(v any, words []string) bool {
	s, ok := v.(string)
	if !ok {
		return false
	}
	for _, w := range words {
		if s == w {
			return true
		}
	}
	return false
}
