// This file holds Given, the time an app hands the agent for one turn, and its check.

package clock

import (
	"fmt"
	"time"

	"github.com/agentfootprint/agentfootprint-go/internal/tz"
)

// Given is what the app passes for one run: the message time, the person's zone and a window
// the person set in the app's control. Every field is optional; the zero Given passes nothing.
type Given struct {
	Now    time.Time
	Zone   string
	Window *Range
}

// Check validates what the app passed without reading any clock: a zone, when given, must
// name UTC or an IANA Area/Location zone (abbreviations such as PST and bare offsets are
// refused), and a window, when given, must pass Range.Check. The refusal names the field
// (time.zone, time.window). A run, or a resume, with a refused Given is refused before its
// turn.
func (g Given) Check() error {
	if g.Zone != "" {
		if _, err := tz.Parse(g.Zone); err != nil {
			return fmt.Errorf("clock: time.zone: %w", err)
		}
	}
	if g.Window != nil {
		if err := g.Window.Check(); err != nil {
			return fmt.Errorf("clock: time.window: %w", err)
		}
	}
	return nil
}
