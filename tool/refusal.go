// This file holds the typed error every definition refusal returns.

package tool

import "fmt"

// DefinitionError is returned by New and NewRaw (and toolrun.WithExecute) when a
// tool definition is refused. Nothing is repaired: the definition is
// rejected and the error says which tool, which field and how to fix it.
// Callers branch on it with errors.As.
type DefinitionError struct {
	// Tool is the tool's name as given (possibly the offending name).
	Tool string
	// Path names the refused field: "name", "description", "schema",
	// "validation", "resultCeiling.maxChars", "checkIn",
	// "askOrAssume", "askOrAssume.<arg>", "askOrAssume.<arg>.assume",
	// "askOrAssume.<arg>.choices[i]", "period.argument",
	// "period.spelling", "period.units", and so on.
	Path string
	// Problem says what is wrong, in one clause.
	Problem string
	// Fix says what to write instead, in one clause.
	Fix string
	// Err is an underlying cause (a schema compiler error), or nil.
	Err error
}

// Error renders the refusal as one line naming tool, path, problem and
// fix.
func (e *DefinitionError) Error() string {
	msg := fmt.Sprintf("tool %q: %s: %s", e.Tool, e.Path, e.Problem)
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	if e.Fix != "" {
		msg += " (fix: " + e.Fix + ")"
	}
	return msg
}

// Unwrap returns the underlying cause, if any.
func (e *DefinitionError) Unwrap() error { return e.Err }

func refuse(tool, path, problem, fix string) *DefinitionError {
	return &DefinitionError{Tool: tool, Path: path, Problem: problem, Fix: fix}
}
