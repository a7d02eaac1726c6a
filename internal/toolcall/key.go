// Package toolcall holds what package tool and package tool/toolrun share
// without exporting it to users: the context key under which a dispatcher
// attaches the call a tool serves (tool.CallFrom reads it, toolrun.WithCall
// writes it), and the error a tool returns to pause (tool.Pause makes it,
// toolrun.PauseData reads it).
package toolcall

import "fmt"

// Key is the context key of the tool.Call a running tool serves.
type Key struct{}

// Pause is the error tool.Pause returns: the tool asks to pause the run and
// show Data to a person, whose reply later becomes the call's result.
type Pause struct {
	// Data is what the person is shown; it must marshal to JSON.
	Data any
}

// Error says the tool asked to pause; it is never served to the model.
func (p *Pause) Error() string {
	return fmt.Sprintf("tool asked to pause the run for a person (data: %T)", p.Data)
}
