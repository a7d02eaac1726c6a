// This file holds the human-in-the-loop pause a tool raises.

package tool

import "github.com/agentfootprint/agentfootprint-go/internal/toolcall"

// Pause returns the error a tool returns to pause the run and ask a person:
// the dispatcher commits what it has and returns the run as paused, showing
// data (which must marshal to JSON); the person's reply later becomes this
// call's result. A tool returns it as its error:
//
//	return Out{}, tool.Pause(map[string]any{"question": "Restart checkout?"})
//
// A dispatcher (or a tool's own test) recognises it with toolrun.PauseData,
// also when it is wrapped.
func Pause(data any) error { return &toolcall.Pause{Data: data} }
