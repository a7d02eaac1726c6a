// Package assess (internal/honesty/assess) folds a turn's committed record into the answer's
// standing: what the record lets a reader say about the answer, why, and which checks ran. The
// Assessment it returns and its vocabularies are the public package honesty/assess, imported
// here under its own name; importers that also use the public package name this one
// assessfold. A user gets the fold's result from agent.Result.Assessment or
// record.Record.Assessment (package agent/record).
//
// Fold is pure. It reads committed state only (never events, never a clock), so the same call
// gives the same Assessment during the run, after it from a stored record, and from a
// conversation checkpoint's ledger. The Input constructors (InputFromReader, InputFromRecord,
// InputFromJSON, InputFromLedger) turn each of those sources into the one typed shape Fold
// reads, through the agent-state keys package agent/state declares.
//
// The standing is one of known, consistent, not-sure, ask and not-assessed. Every reason that
// fires carries witnesses, JSON pointers into the record that a reader can open to see the row or
// message it rests on. Silence is never support: a check that ran and found nothing gives
// consistent, never known, and a tool that stayed silent about its period is itself a reason.
package assess
