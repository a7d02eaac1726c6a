// Package mcp connects agentfootprint-go to the Model Context Protocol in both
// directions.
//
// As a client, [Connect] opens a session with an MCP server (a program
// started over stdio, or a streamable HTTP endpoint) and [Client.List] turns
// the server's tools into *tool.Tool values an agent can offer. Each tool
// keeps the server's input schema (arguments are validated against it before
// the call, every violation named by its JSON pointer), its description, and
// a definition site naming the server and the tool instead of a Go line. A
// call's whole CallToolResult goes on the record (a tools.progress event);
// the model reads a text summary of it. Coverage declarations (af_absent,
// af_coverage, af_semantics) found in structuredContent or under _meta are
// handed to the framework as the envelope a native tool would return, so the
// same reading channel recognises, records and serves them.
//
// As a server, [Serve] and [NewServer] expose *tool.Tool values over MCP:
// the served text as text content, the tool's envelope as structuredContent,
// and its declarations under _meta, where a client in any language can read
// them.
//
// The package imports nothing of package agent; tool and coverage import
// nothing of it.
package mcp
