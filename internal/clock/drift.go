// This file holds the drift decision made just before a look-back is dispatched.

package clock

import "time"

// DefaultStep is the step a look-back may drift by unrecorded when its tool declares no
// granularity.
const DefaultStep = time.Minute

// DriftOutcome says what became of a look-back that drifted.
type DriftOutcome string

// The outcomes of a drift.
const (
	// Redrawn: the library's own fill was replaced by the asked range, spelled as an iso-range.
	Redrawn DriftOutcome = "redrawn"
	// Shifted: the look-back ran as sent, so it covers a later window than the one asked.
	Shifted DriftOutcome = "shifted"
)

// FormISORange is the spelling a redrawn look-back is sent in.
const FormISORange = "iso-range"

// Drift is the record of a look-back dispatched later than the turn's now by more than a step:
// {byMs, outcome, form?}. Form is set only when the call was redrawn.
type Drift struct {
	ByMs    int64        `json:"byMs"`
	Outcome DriftOutcome `json:"outcome"`
	Form    string       `json:"form,omitempty"`
}

// Dispatch describes one call that sent a look-back, at the moment it is dispatched.
type Dispatch struct {
	Now          time.Time     // the turn's now
	DispatchedAt time.Time     // the wall clock just before the tool executes
	Step         time.Duration // the tool's granularity; zero means DefaultStep
	// LibraryFill is true when the library wrote the look-back (a filled default or answer,
	// or the app's control window) and false when the model wrote it.
	LibraryFill bool
	// AcceptsISORange is true when the tool also accepts the iso-range spelling.
	AcceptsISORange bool
}

// DriftAtDispatch decides what a look-back's drift (DispatchedAt − Now) means. Up to one step
// (or a negative drift) it means nothing, and ok is false. Beyond it, a look-back the library
// filled is redrawn as the asked range when the tool accepts an iso-range, and otherwise runs
// as sent and is shifted; a look-back the model wrote is never written over and is shifted.
func DriftAtDispatch(d Dispatch) (Drift, bool) {
	step := d.Step
	if step <= 0 {
		step = DefaultStep
	}
	by := d.DispatchedAt.Sub(d.Now)
	if by <= step {
		return Drift{}, false
	}
	out := Drift{ByMs: by.Milliseconds(), Outcome: Shifted}
	if d.LibraryFill && d.AcceptsISORange {
		out.Outcome, out.Form = Redrawn, FormISORange
	}
	return out, true
}
