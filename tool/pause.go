// This file holds the human-in-the-loop pause a tool raises.

package tool

import "fmt"

// PauseRequest is the error a tool returns to pause the run and ask a
// person. The dispatcher recognises it with errors.As, commits what it has,
// and returns the run as paused carrying Data; the person's reply later
// becomes this call's result.
type PauseRequest struct {
	// Data is what the person is shown; it must marshal to JSON.
	Data any
}

// Error says the tool asked to pause; it is never served to the model.
func (p *PauseRequest) Error() string {
	return fmt.Sprintf("tool asked to pause the run for a person (data: %T)", p.Data)
}

// Pause returns a *PauseRequest carrying data. A tool returns it as its
// error:
//
//	return Out{}, tool.Pause(map[string]any{"question": "Restart checkout?"})
func Pause(data any) error { return &PauseRequest{Data: data} }
