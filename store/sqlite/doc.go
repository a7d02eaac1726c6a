// Package sqlite is the embedded store.Store: one SQLite file in WAL mode, created on first
// use, written through modernc.org/sqlite (pure Go, no cgo).
//
// Since store schema 2 a run's record, events and blobs are kept as chunks shared between
// runs and compressed, so the turns of a conversation keep what they repeat once; reads
// return the exact bytes that were written. Opening a schema 1 file upgrades it in place:
// the rows already there read as they are, and an older library then refuses the file.
package sqlite
