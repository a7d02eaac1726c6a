// Package sqlite is the embedded store.Store: one SQLite file in WAL mode, created on first
// use, written through modernc.org/sqlite (pure Go, no cgo).
package sqlite
