// This file holds the static sentences the model is served: the three envelope notes, the held-only
// absence note, the clause per served verdict and the in-progress clause. They are never built
// from runtime values.

package engine

// AbsenceNote is the note every minted absence carries.
const AbsenceNote = "The search ran and matched nothing. That empty match is the answer, not an error, and " +
	"nothing was put in place of what was asked for. Calling again with the same arguments returns this same " +
	"result. `checked` lists the ground the search covered. `not_checked` and `cannot_cover` list " +
	"ground outside this result: only a different request can reach it, never a retry."

// AbsenceNoteHeldOnly replaces [AbsenceNote] in what the model is served when the absence's
// period is not-held or partly-held. It claims nothing about time the store does not hold; the
// verdict clause that follows explains the gap.
const AbsenceNoteHeldOnly = "The search ran over the time the store holds and matched nothing there. " +
	"`checked` lists the ground the search covered. `not_checked` and `cannot_cover` list ground " +
	"outside this result: only a different request can reach it, never a retry."

// CoverageNote is the note every minted coverage ledger carries.
const CoverageNote = "This result covers only the ground in `checked`. `not_checked` lists ground the " +
	"answering call skipped, and `cannot_cover` lists ground this tool can never see. Nothing found " +
	"here proves anything about either list, and no retry changes `cannot_cover`. Any answer built on this " +
	"result must keep these limits."

// SemanticsNote is the note every minted described result carries.
const SemanticsNote = "The payload is structured data, not a narrative. `grain` and `provenance` " +
	"qualify its numbers. Check `is_counter` before adding series values together. `measured_at` " +
	"and `age_seconds` say how old the data is. Whatever `not_covered` lists lies outside this " +
	"result, which holds no evidence about it either way."

// The clause served after the note for each served verdict.
const (
	ClauseNotHeld = "`period.verdict` is `not-held`: the store holds none of the time in " +
		"`period.queried`, so all of that time is ground this result does not cover, and the result " +
		"establishes nothing about it. The time the store does hold is in `period.held`."
	ClausePartlyHeld = "`period.verdict` is `partly-held`: the store holds only part of " +
		"`period.queried`. The time outside `period.held` is ground this result does not cover; " +
		"the result speaks for `period.held` only."
	ClauseUnknown = "`period.verdict` is `unknown`: the tool cannot say what time its store holds, " +
		"so this result cannot guarantee that it covers `period.queried`."
)

// InProgressClause is served after a coverage ledger's note when it lists work in flight.
const InProgressClause = "`in_progress` lists what the answering call found still running. Its " +
	"outcome is not known yet, so it counts as neither a success nor a failure and must be " +
	"reported as in progress."
