// Errors: the failures of building, running and decoding, each naming the
// thing that was wrong. The exported types carry fields a caller reads; the
// unexported ones are only ever printed.

package flow

import (
	"errors"
	"fmt"
	"strings"
)

// ErrPauseInSubflow is returned when a stage inside a subflow asks to pause:
// only top-level stages may pause.
var ErrPauseInSubflow = errors.New("flow: a stage inside a subflow cannot pause")

// chartError lists every problem Build found in a chart. A chart that does
// not build is a programming error to read and fix, so no caller branches on
// its type; Unwrap still hands each problem to errors.Is and errors.As.
type chartError struct {
	Chart string
	Errs  []error
}

// Error describes the failure.
func (e *chartError) Error() string {
	parts := make([]string, len(e.Errs))
	for i, err := range e.Errs {
		parts[i] = err.Error()
	}
	return fmt.Sprintf("flow: chart %q is invalid: %s", e.Chart, strings.Join(parts, "; "))
}

// Unwrap returns the individual problems.
func (e *chartError) Unwrap() []error { return e.Errs }

// StageError is a failure of one executed stage; its commit is in the log.
type StageError struct {
	RuntimeStageID string
	Err            error
}

// Error describes the failure.
func (e *StageError) Error() string {
	return fmt.Sprintf("flow: stage %s: %v", e.RuntimeStageID, e.Err)
}

// Unwrap returns the stage's own error.
func (e *StageError) Unwrap() error { return e.Err }

// panicError is a stage panic recovered into an error.
type panicError struct {
	Stage string
	Value any
}

// Error describes the failure.
func (e *panicError) Error() string {
	return fmt.Sprintf("stage %q panicked: %v", e.Stage, e.Value)
}

// KeyError refuses a write or input for a key: undeclared, read-only, of the
// wrong type, or used with a verb it does not support.
type KeyError struct {
	Key    string
	Reason string
}

// Error describes the failure.
func (e *KeyError) Error() string { return fmt.Sprintf("key %q: %s", e.Key, e.Reason) }

// LoopLimitError stops a run whose back-edge into Node exceeded Limit passes.
type LoopLimitError struct {
	Node  string
	Limit int
}

// Error describes the failure.
func (e *LoopLimitError) Error() string {
	return fmt.Sprintf("flow: loop into %q exceeded its visit limit of %d", e.Node, e.Limit)
}

// branchError is a decision that chose a branch its decider does not have.
type branchError struct {
	Decider string
	Branch  string
}

// Error describes the failure.
func (e *branchError) Error() string {
	return fmt.Sprintf("decider %q chose unknown branch %q", e.Decider, e.Branch)
}

// CheckpointError refuses a checkpoint that cannot resume on this chart.
type CheckpointError struct {
	Field  string
	Reason string
}

// Error describes the failure.
func (e *CheckpointError) Error() string {
	return fmt.Sprintf("flow: checkpoint %s: %s", e.Field, e.Reason)
}

// CorruptLogError refuses a record or log that is not well formed; Field
// names where (for example "commits[3].ops[0].verb").
type CorruptLogError struct {
	Field  string
	Reason string
}

// Error describes the failure.
func (e *CorruptLogError) Error() string {
	return fmt.Sprintf("flow: corrupt log at %s: %s", e.Field, e.Reason)
}

// observerPanicError reports a recovered observer panic to other observers.
type observerPanicError struct {
	Observer string
	Value    string
}

// Error describes the failure.
func (e *observerPanicError) Error() string {
	return fmt.Sprintf("flow: observer %q panicked: %s", e.Observer, e.Value)
}

// siblingConflictError is two or more parallel children writing one key with
// a verb other than append.
type siblingConflictError struct {
	Key      string
	Children []string
}

// Error describes the failure.
func (e *siblingConflictError) Error() string {
	return fmt.Sprintf("flow: parallel children %s all write key %q (only appends may share a key)",
		strings.Join(e.Children, ", "), e.Key)
}

// RedactedError refuses to replay a key whose value is redacted in a commit
// the replay needs.
type RedactedError struct {
	Key    string
	Commit int
}

// Error describes the failure.
func (e *RedactedError) Error() string {
	return fmt.Sprintf("flow: key %q is redacted at commit %d", e.Key, e.Commit)
}
