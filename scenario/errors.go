// This file holds the loader's error: one field path, one problem, and a guess at the key
// the author meant when a key is unknown.

package scenario

import (
	"fmt"
	"strings"
)

// FieldError refuses a scenario file, naming the field at fault by its path from the top of
// the file, such as `tools[1].results[0].status`. Path is empty when the file as a whole is
// at fault (it is not JSON, or not an object). Callers branch on it with errors.As.
type FieldError struct {
	// Path is the field's path: object keys joined by dots, array elements as [i].
	Path string
	// Problem says what is wrong and, where it can, what to write instead.
	Problem string
}

// Error renders the refusal as "path: problem".
func (e *FieldError) Error() string {
	if e.Path == "" {
		return "scenario: " + e.Problem
	}
	return "scenario: " + e.Path + ": " + e.Problem
}

func fieldErr(path, format string, args ...any) *FieldError {
	return &FieldError{Path: path, Problem: fmt.Sprintf(format, args...)}
}

// join appends key to path.
func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// index appends [i] to path.
func index(path string, i int) string { return fmt.Sprintf("%s[%d]", path, i) }

// didYouMean returns ` (did you mean "x"?)` when one candidate is close to word, else "".
func didYouMean(word string, candidates []string) string {
	best, bestD := "", -1
	for _, c := range candidates {
		d := editDistance(strings.ToLower(word), strings.ToLower(c))
		if bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	limit := 2
	if n := len(word) / 3; n > limit {
		limit = n
	}
	if bestD < 0 || bestD > limit || bestD >= len(word) {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// editDistance is the Levenshtein distance between a and b, counted in bytes. Inputs are
// capped so a hostile file cannot make it quadratic in a large key.
func editDistance(a, b string) int {
	const maxLen = 64
	if len(a) > maxLen || len(b) > maxLen {
		return maxLen
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
