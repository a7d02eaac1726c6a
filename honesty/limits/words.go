// This file holds the limits block's fixed words a reader of an answer finds it by: its heading
// and the separator before it.

package limits

import "github.com/agentfootprint/agentfootprint-go/coverage/wire"

// Heading is the coverage block's first line. It starts with wire.CoverageBlockHeading and
// says that what follows is the ground the answer covers, stated by its tools and not by the model.
const Heading = wire.CoverageBlockHeading + ", as stated by the tools the answer used (not by the model):"

// Separator sits between the answer's text and its blocks.
const Separator = "\n\n---\n\n"
