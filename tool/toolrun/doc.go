// Package toolrun is the dispatcher's side of a tool: what an agent, an
// MCP server or a tool's own test does with a *tool.Tool once it is
// defined. Package tool is what a tool author writes; this package reads a
// tool through its plain tool.Declaration value and validates, checks in,
// executes and serves a call:
//
//	d := t.Declaration()
//	rej := toolrun.Validate(d, args, argsErr) // every leaf issue, with JSON pointers
//	if rej.Stops(d.Validation) {
//		serve(rej.Text()) // status invalid; the tool does not run
//	}
//	need, _ := toolrun.NeedsCheckIn(d, args) // consent before execute
//	out, err := toolrun.Execute(toolrun.WithCall(ctx, call), d, args)
//
// Execute recovers a panic into a *PanicError; when a tool returns
// tool.Pause(data), PauseData finds the data in the error and the
// dispatcher pauses the run instead of serving it. Invoke is validate-then-execute in one call, for a dispatcher
// without a check-in between them (the MCP server, a tool's own tests).
package toolrun
