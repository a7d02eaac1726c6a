// Package ledger (internal/honesty/ledger) is the framework's side of the findings ledger: the
// checkpoint door that checks every row arriving from outside the run, and the writers that file
// and emit period rows. The rows themselves (Row, ArgumentRow) and the door's refusal (RowError)
// are the public package honesty/ledger, imported here under its own name; importers that also
// use the public package name this one ledgerops.
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
//   - The checkpoint door (Door.Admit, here) checks every row by its kind and refuses the whole ledger
//     at the first row that is malformed or of a kind it has no check for, naming that row.
//     Readers, by contrast, skip kinds they do not know.
package ledger
