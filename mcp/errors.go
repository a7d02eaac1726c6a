// This file holds the package's errors: each names the server, and the tool
// when there is one, so the model reads a sentence it can act on; the call
// failures (the table in docs/MCP.md) are exported for errors.As, and the
// call timeout wraps context.DeadlineExceeded for errors.Is.

package mcp

import (
	"context"
	"fmt"
	"time"
)

// sourceError is a Source that cannot be connected to as written.
type sourceError struct {
	Source  Source
	Problem string
}

// Error names the source and the problem.
func (e *sourceError) Error() string {
	return fmt.Sprintf("mcp: server %q: %s", e.Source.name(), e.Problem)
}

// connectError is a server that could not be started, reached or
// initialised.
type connectError struct {
	Server string // the server's name
	Err    error
}

// Error names the server and the cause.
func (e *connectError) Error() string {
	return fmt.Sprintf("mcp: server %q: cannot connect: %v", e.Server, e.Err)
}

// Unwrap returns the cause.
func (e *connectError) Unwrap() error { return e.Err }

// listError is a tools/list request that failed or answered more than the
// client accepts.
type listError struct {
	Server string
	Err    error
}

// Error names the server and the cause.
func (e *listError) Error() string {
	return fmt.Sprintf("mcp: server %q: cannot list its tools: %v", e.Server, e.Err)
}

// Unwrap returns the cause.
func (e *listError) Unwrap() error { return e.Err }

// SessionLostError is a call during which the session with the server was
// lost (the server process died, the connection closed, or the server
// forgot the session). The call is never sent again: it may or may not have
// taken effect on the server. Reconnected says whether the one reconnection
// attempt that followed succeeded, so that calling the tool again can work.
type SessionLostError struct {
	Server      string
	Tool        string
	Reconnected bool
	// ReconnectErr is why reconnecting failed, when it did.
	ReconnectErr error
	Err          error
}

// Error is the sentence the model reads.
func (e *SessionLostError) Error() string {
	s := fmt.Sprintf("the connection to MCP server %q was lost during this call of %q (%v); the call was not sent again and may or may not have taken effect", e.Server, e.Tool, e.Err)
	if e.Reconnected {
		return s + "; a new session is open, so the tool can be called again"
	}
	return s + fmt.Sprintf("; reconnecting failed (%v), so the server's tools cannot be used for now", e.ReconnectErr)
}

// Unwrap returns the transport's error.
func (e *SessionLostError) Unwrap() error { return e.Err }

// ServerDownError is a call refused without being sent because the session
// was lost earlier and reconnecting failed. The next Client.List tries again.
type ServerDownError struct {
	Server string
	Tool   string
	Err    error // why the last reconnection failed
}

// Error is the sentence the model reads.
func (e *ServerDownError) Error() string {
	return fmt.Sprintf("MCP server %q is not connected (the last reconnection failed: %v); %q was not called", e.Server, e.Err, e.Tool)
}

// Unwrap returns why the last reconnection failed.
func (e *ServerDownError) Unwrap() error { return e.Err }

// noAnswerError is a call the server did not answer within the call
// timeout (see WithCallTimeout). The client cancelled the request. It wraps
// context.DeadlineExceeded, which is how a caller tells a timeout apart.
type noAnswerError struct {
	Server string
	Tool   string
	After  time.Duration
}

// Error is the sentence the model reads.
func (e *noAnswerError) Error() string {
	return fmt.Sprintf("MCP server %q did not answer the call of %q within %s; the request was cancelled", e.Server, e.Tool, e.After)
}

// Unwrap returns context.DeadlineExceeded: the call timeout ran out.
func (e *noAnswerError) Unwrap() error { return context.DeadlineExceeded }

// CallError is a call the server refused at the protocol level (an unknown
// tool, a JSON-RPC error) or whose result could not be decoded (an unknown
// content type, for example). A result with isError set is not a CallError:
// it is served to the model with the status failure.
type CallError struct {
	Server string
	Tool   string
	Err    error
}

// Error is the sentence the model reads.
func (e *CallError) Error() string {
	return fmt.Sprintf("MCP server %q could not complete the call of %q: %v", e.Server, e.Tool, e.Err)
}

// Unwrap returns the protocol error.
func (e *CallError) Unwrap() error { return e.Err }

// ResultTooLargeError is a result larger than the client accepts (see
// WithMaxResultBytes). Nothing of it is served.
type ResultTooLargeError struct {
	Server string
	Tool   string
	Limit  int64
	// Size is the result's size in bytes, or -1 when the transport stopped
	// reading before the end.
	Size int64
}

// Error is the sentence the model reads.
func (e *ResultTooLargeError) Error() string {
	if e.Size < 0 {
		return fmt.Sprintf("the result of %q from MCP server %q is over the %d-byte limit; it was not read", e.Tool, e.Server, e.Limit)
	}
	return fmt.Sprintf("the result of %q from MCP server %q is %d bytes, over the %d-byte limit; it was not served", e.Tool, e.Server, e.Size, e.Limit)
}

// ToolChangedError is a call refused because the server's tool changed its
// input schema or vanished since the list the tool came from; List again to
// offer the current tool. A changed description is reported in the next
// list's Changes and does not refuse the call.
type ToolChangedError struct {
	Server string
	Tool   string
	Change ChangeKind
}

// Error is the sentence the model reads.
func (e *ToolChangedError) Error() string {
	return fmt.Sprintf("MCP server %q reports that tool %q %s since it was offered; it was not called", e.Server, e.Tool, e.Change.phrase())
}
