// Package assess is the answer's standing as the framework folds it from the committed record:
// an Assessment says what the record lets a reader say about the answer (known, consistent,
// not-sure, ask or not-assessed), the Reasons that fired and the Checks that ran, each with
// witnesses, JSON Pointers into the record a reader can open to see the row or message it
// rests on.
//
// A user reads it from agent.Result.Assessment (or record.Record.Assessment on a stored record) and
// branches on the words declared here: the Standing* and Value* values, the Reason* names (in
// ReasonOrder's report order) and the Pointer* kinds. The Checks that ran are reported for a
// reader to audit, by name and count (Check.Check, Ran, Of). Silence is never
// support: a check that ran and found nothing gives consistent, never known, and a tool that
// stayed silent about its period is itself a reason.
//
// The fold itself is pure and reads committed state only; it is the framework's own, in
// internal/honesty/assess.
package assess
