// This file turns one server tool into a *tool.Tool and runs its calls:
// schema and site at definition; the call, its errors, its record and its
// reading at execution.

package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentfootprint/agentfootprint-go/tool"
)

// build defines the framework tool for t, or returns why it cannot.
func (c *Client) build(t *sdk.Tool) (shape, ToolInfo, *tool.Tool, string) {
	schema, err := json.Marshal(t.InputSchema)
	if err != nil {
		return shape{}, ToolInfo{}, nil, "its input schema cannot be encoded: " + err.Error()
	}
	desc := strings.TrimSpace(t.Description)
	if desc == "" {
		desc = strings.TrimSpace(t.Title)
	}
	if desc == "" {
		desc = "Tool " + t.Name + " of MCP server " + c.name + " (the server gives no description)."
	}
	descKey, _ := json.Marshal(struct {
		D string               `json:"d"`
		A *sdk.ToolAnnotations `json:"a"`
	}{t.Description, t.Annotations})
	sh := shape{schema: schema, desc: descKey}
	info := ToolInfo{Name: t.Name, Title: t.Title, Annotations: t.Annotations, Meta: t.Meta}
	if t.OutputSchema != nil {
		info.OutputSchema, _ = json.Marshal(t.OutputSchema)
	}
	opts := append([]tool.Option{tool.WithDefinitionSite(c.src.site(c.name, t.Name))}, c.cfg.toolOpts[t.Name]...)
	name := t.Name
	built, err := tool.NewRaw(name, desc, schema, func(ctx context.Context, args json.RawMessage) (any, error) {
		return c.call(ctx, name, sh, args)
	}, opts...)
	if err != nil {
		return shape{}, ToolInfo{}, nil, err.Error()
	}
	return sh, info, built, ""
}

// CallRecord is what one call puts on the record, as the payload (under the
// key "mcp") of a tools.progress event: the server, the tool, the whole
// result as the server sent it, where declarations were found, the _meta
// declarations left off, the tool list changes not recorded before, and,
// for a call that failed, what happened.
type CallRecord struct {
	Server string          `json:"server"`
	Tool   string          `json:"tool"`
	Result json.RawMessage `json:"result,omitempty"`
	// DeclaredIn is where the declarations were found: "structuredContent" or "_meta" (empty
	// for none).
	DeclaredIn      string               `json:"declaredIn,omitempty"`
	Problems        []DeclarationProblem `json:"problems,omitempty"`
	ToolListChanges []Change             `json:"toolListChanges,omitempty"`
	Error           string               `json:"error,omitempty"`
}

// call runs one call of the server's tool name (built with shape want) on
// args, already validated against its schema.
func (c *Client) call(ctx context.Context, name string, want shape, args json.RawMessage) (any, error) {
	// Outside a dispatcher (a direct Execute) the zero Call's Progress does
	// nothing, and the record goes nowhere: that is the caller's choice.
	call, _ := tool.CallFrom(ctx)
	progress := call.Progress
	rec := CallRecord{Server: c.name, Tool: name, ToolListChanges: c.takeChanges()}
	v, err := c.callOnce(ctx, name, want, args, &rec)
	if err != nil {
		rec.Error = err.Error()
	}
	progress(map[string]any{"mcp": rec})
	return v, err
}

func (c *Client) callOnce(ctx context.Context, name string, want shape, args json.RawMessage, rec *CallRecord) (any, error) {
	if kind := c.current(ctx, name, want); kind != "" {
		return nil, &ToolChangedError{Server: c.name, Tool: name, Change: kind}
	}
	sess, gen, err := c.session(name)
	if err != nil {
		return nil, err
	}
	callCtx, cancel := context.WithTimeout(ctx, c.cfg.callTimeout)
	defer cancel()
	res, err := sess.CallTool(callCtx, &sdk.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
	if err != nil {
		return nil, c.callFailed(ctx, callCtx, name, gen, err)
	}
	raw, err := json.Marshal(res)
	if err != nil {
		return nil, &CallError{Server: c.name, Tool: name, Err: err}
	}
	if int64(len(raw)) > c.cfg.maxResultBytes {
		return nil, &ResultTooLargeError{Server: c.name, Tool: name, Limit: c.cfg.maxResultBytes, Size: int64(len(raw))}
	}
	rec.Result = raw
	r := readResult(res)
	rec.DeclaredIn, rec.Problems = r.declaredIn, r.problems
	return r.value, nil
}

// callFailed names a failed call: the caller's own cancellation, no answer
// in time, a result over the cap, a lost session (followed by one
// reconnection), or a protocol error.
func (c *Client) callFailed(ctx, callCtx context.Context, name string, gen int, err error) error {
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case tooLarge(err):
		// The transport stopped reading; the session cannot be trusted
		// to be in step any more.
		_ = c.recover(ctx, gen)
		return &ResultTooLargeError{Server: c.name, Tool: name, Limit: c.cfg.maxResultBytes, Size: -1}
	case errors.Is(callCtx.Err(), context.DeadlineExceeded):
		return &noAnswerError{Server: c.name, Tool: name, After: c.cfg.callTimeout}
	case lost(err):
		rerr := c.recover(ctx, gen)
		return &SessionLostError{Server: c.name, Tool: name, Reconnected: rerr == nil, ReconnectErr: rerr, Err: err}
	}
	return &CallError{Server: c.name, Tool: name, Err: err}
}

// tooLarge reports whether err is a transport's refusal of an oversized
// message: our HTTP body cap, or the go-sdk's stdio line bound or SSE event
// bound. The go-sdk formats these with %v, so only their text is left to
// recognise them by.
func tooLarge(err error) bool {
	if errors.Is(err, errTooLarge) {
		return true
	}
	msg := err.Error()
	for _, s := range []string{errTooLarge.Error(), "exceeded the configured maximum", "SSE event exceeded"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
