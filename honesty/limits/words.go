// This file holds the limits block's fixed words: its heading, the separator before it and its
// section labels, so a reader of an answer can find the block and its sections.

package limits

import "github.com/agentfootprint/agentfootprint-go/coverage/wire"

// Heading is the coverage block's first line. It starts with wire.CoverageBlockHeading and
// says that what follows is the ground the answer covers, stated by its tools and not by the model.
const Heading = wire.CoverageBlockHeading + ", as stated by the tools the answer used (not by the model):"

// Separator sits between the answer's text and its blocks.
const Separator = "\n\n---\n\n"

// Section labels, in block order.
const (
	LabelChecked     = "Checked"
	LabelNotChecked  = "Not checked"
	LabelCannotCover = "Cannot cover"
	LabelPeriod      = "Period"
	LabelInProgress  = "In progress (still running when read; the outcome is not known yet)"
)

// LabelClocks labels the section that names the clocks the times were read on.
const LabelClocks = "Clocks"
