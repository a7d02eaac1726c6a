// This file holds the errors a Store returns where callers branch on the cause.

package store

import (
	"errors"
	"fmt"
)

// ErrNotFound is wrapped by every "no such run / blob / checkpoint" error. The wrapping
// error names what was looked up; test with errors.Is.
var ErrNotFound = errors.New("not found")

// ErrClosed is returned by a Store used after Close.
var ErrClosed = errors.New("store: closed")

// NotFoundError says which thing of which kind was not there. It wraps ErrNotFound.
type NotFoundError struct {
	// Kind is "run", "blob" or "checkpoint".
	Kind string
	// ID is the run id, blob digest or session id that was looked up.
	ID string
}

// Error implements the error interface.
func (e *NotFoundError) Error() string {
	return fmt.Sprintf("store: %s %q not found", e.Kind, e.ID)
}

// Unwrap returns ErrNotFound.
func (e *NotFoundError) Unwrap() error { return ErrNotFound }

// SchemaVersionError refuses a store whose schema was written by a newer version of this
// library: opening it could misread or damage data this version does not know about. Both
// backends' Open return it; test for it with errors.As.
type SchemaVersionError struct {
	// Where names the store: a file path or a PostgreSQL database and schema.
	Where string
	// Found is the schema version recorded in the store.
	Found int
	// Supported is the newest schema version this library reads and writes.
	Supported int
}

// Error implements the error interface.
func (e *SchemaVersionError) Error() string {
	return fmt.Sprintf("store: %s has schema version %d, this version of agentfootprint-go supports up to %d; upgrade agentfootprint-go to open it",
		e.Where, e.Found, e.Supported)
}

// InvalidError refuses a value handed to the store, naming the field at fault.
type InvalidError struct {
	// Field is the Go field path, e.g. "Run.Record" or "Run.Blobs[2].SHA256".
	Field string
	// Reason says what is wrong with it.
	Reason string
}

// Error implements the error interface.
func (e *InvalidError) Error() string {
	return fmt.Sprintf("store: %s: %s", e.Field, e.Reason)
}
