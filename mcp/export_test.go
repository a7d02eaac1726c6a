// This file gives the package's external tests the unexported names they check.

package mcp

// Summary is the text a model reads for a result's content.
var Summary = summaryOf

// The error types a malformed source and an unservable tool return.
type (
	SourceError = sourceError
	ServeError  = serveError
)

// The error types a failed connection and a failed tools/list return.
type (
	ConnectError = connectError
	ListError    = listError
)
