// This file holds the server side: native tools exposed over MCP, each
// result's served text as text content, its envelope as structuredContent
// and its declarations under _meta.

package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	"github.com/agentfootprint/agentfootprint-go/coverage/wire"
	"github.com/agentfootprint/agentfootprint-go/internal/coverread"
	"github.com/agentfootprint/agentfootprint-go/tool"
	"github.com/agentfootprint/agentfootprint-go/tool/toolrun"
)

// serveError is a tool NewServer cannot expose.
type serveError struct {
	Tool    string
	Problem string
}

// Error names the tool and the problem.
func (e *serveError) Error() string {
	return fmt.Sprintf("mcp: cannot serve tool %q: %s", e.Tool, e.Problem)
}

// Serve exposes tools as an MCP server on transport (for example
// &sdkmcp.StdioTransport{} of github.com/modelcontextprotocol/go-sdk/mcp)
// until the client disconnects or ctx is done. See NewServer.
func Serve(ctx context.Context, transport sdk.Transport, tools ...*tool.Tool) error {
	s, err := NewServer(tools...)
	if err != nil {
		return err
	}
	if err := s.Run(ctx, transport); err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("mcp: serving: %w", err)
	}
	return nil
}

// NewServer returns a go-sdk server offering tools, for callers that need a
// transport Serve does not set up (sdkmcp.NewStreamableHTTPHandler, for
// one). Each call's arguments are validated against the tool's schema as
// the agent's dispatcher would (an enforced rejection is answered with
// isError and the issues' text); the result's served text (what a model of
// this framework reads) is the text content; a result that is a JSON object
// is also structuredContent, as written; and its declarations go under
// _meta: af_absent and af_semantics hold the envelope's keys but its
// marker, af_coverage holds a ledger's af_coverage object. A tool's error,
// a pause, or a result over its ceiling is answered with isError.
//
// NewServer refuses a nil tool, two tools of one name, and a tool with a
// check-in: MCP gives the server no way to wait for the person's consent.
func NewServer(tools ...*tool.Tool) (*sdk.Server, error) {
	s := sdk.NewServer(&implementation, nil)
	seen := map[string]bool{}
	for i, t := range tools {
		if t == nil {
			return nil, &serveError{Tool: fmt.Sprintf("#%d", i), Problem: "the tool is nil"}
		}
		if seen[t.Name()] {
			return nil, &serveError{Tool: t.Name(), Problem: "two tools have this name"}
		}
		seen[t.Name()] = true
		d := t.Declaration()
		if d.CheckIn != nil {
			return nil, &serveError{Tool: t.Name(), Problem: "it declares a check-in, and MCP gives the server no way to wait for the person's consent"}
		}
		s.AddTool(&sdk.Tool{Name: d.Name, Description: d.Description, InputSchema: d.InputSchema}, handler(d))
	}
	return s, nil
}

func handler(d tool.Declaration) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		var args json.RawMessage
		if req.Params != nil {
			args = req.Params.Arguments
		}
		if len(args) == 0 {
			args = json.RawMessage("{}")
		}
		if rej := toolrun.Validate(d, args, ""); rej.Stops(d.Validation) {
			return failed(rej.Text()), nil
		}
		out, err := toolrun.Execute(toolrun.WithCall(ctx, tool.Call{Name: d.Name}), d, args)
		if err != nil {
			if _, ok := toolrun.PauseData(err); ok {
				return failed(fmt.Sprintf("The tool %q asked to wait for a person, which this MCP server cannot do; it was not completed.", d.Name)), nil
			}
			return failed(fmt.Sprintf("The tool %q failed: %s", d.Name, err)), nil
		}
		return resultOf(d, out), nil
	}
}

func failed(text string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}, IsError: true}
}

// resultOf builds the MCP result of one output.
func resultOf(d tool.Declaration, out toolrun.Output) *sdk.CallToolResult {
	raw, err := toolrun.Text(out.Value)
	if err != nil {
		return failed(fmt.Sprintf("The result of tool %q could not be encoded: %s", d.Name, err))
	}
	served := raw
	if rd := boundary.Read(out.Value, d.Name, nil); rd.Changed {
		if served, err = toolrun.Text(rd.Served); err != nil {
			return failed(fmt.Sprintf("The result of tool %q could not be encoded: %s", d.Name, err))
		}
	}
	if refusal, _, over := toolrun.CheckCeiling(d, served); over {
		return failed(refusal)
	}
	res := &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: served}}}
	switch out.Status {
	case tool.StatusFailure, tool.StatusDenied, tool.StatusInvalid:
		res.IsError = true
	}
	trimmed := strings.TrimSpace(raw)
	if !strings.HasPrefix(trimmed, "{") {
		return res
	}
	res.StructuredContent = json.RawMessage(trimmed)
	if v, err := wire.DecodeJSON([]byte(trimmed)); err == nil {
		if meta := metaOf(v); len(meta) > 0 {
			res.Meta = meta
		}
	}
	return res
}

// metaOf returns the _meta declarations of envelope v (decoded JSON), the
// inverse of metaEnvelope.
func metaOf(v any) sdk.Meta {
	meta := sdk.Meta{}
	body := func(marker string, o wire.Object) wire.Object {
		out := wire.Object{}
		for _, m := range o {
			if m.Key != marker {
				out = append(out, m)
			}
		}
		return out
	}
	if o, ok := coverread.ReadAbsence(v); ok {
		meta[wire.AbsenceMarker] = body(wire.AbsenceMarker, o)
		return meta
	}
	if o, ok := coverread.ReadLedger(v); ok {
		ac, _ := o.Get(wire.CoverageMarker)
		meta[wire.CoverageMarker] = ac
		res, _ := o.Get("result")
		if a, ok := coverread.ReadAbsence(res); ok {
			meta[wire.AbsenceMarker] = body(wire.AbsenceMarker, a)
		} else if s, _ := coverread.ReadSemantics(res); s != nil {
			meta[wire.SemanticsMarker] = body(wire.SemanticsMarker, s)
		}
		return meta
	}
	if s, _ := coverread.ReadSemantics(v); s != nil {
		meta[wire.SemanticsMarker] = body(wire.SemanticsMarker, s)
	}
	return meta
}
