// Package ledger is the findings ledger: the one append-only list of honesty rows
// (AgentState.findingsLedger) that every armed layer files into and the standing is folded from.
//
// A row is tagged by its kind. This package models the two kinds the results layer reads, period
// rows (owned by the coverage package, filed by the results layer) and argument rows (filed by the
// inputs layer), and keeps any other kind as the JSON it arrived as, so a reader can skip it.
//
// Three rules hold everywhere:
//
//   - Writes never mutate: appending rows gives a fresh slice, and an empty write writes nothing.
//   - Period rows are never collapsed: two rows under one call id are two calls, so a later
//     covered verdict can never hide an earlier not-held one.
//   - The checkpoint door checks every row by its kind when a conversation is loaded
//     (agent.Agent.LoadConversation) and refuses the whole ledger at the first row that is malformed
//     or of a kind it has no check for, with a *RowError naming that row (errors.As finds it).
//     Readers (PeriodRows, OfTurn, CurrentArguments), by contrast, skip kinds they do not know.
//
// The door and the row writers are the framework's own, in internal/honesty/ledger.
package ledger
