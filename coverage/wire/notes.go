// This file holds the heading of the limits block an answer may carry. The sentences the model is
// served after a declaration are the framework's (internal/coverage/engine) and are published for
// other languages in coverage/canonical-notes.json.

package wire

// CoverageBlockHeading opens the heading line of the limits block an answer may carry.
const CoverageBlockHeading = "What this answer rests on"
