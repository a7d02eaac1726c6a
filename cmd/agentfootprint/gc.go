package main

import (
	"os"
	"runtime"
	"runtime/debug"
)

// firstCollectionAt is how much memory the command may take before the garbage collector
// first runs. Most commands (explain, show, audit on a run of a few hundred model calls) end
// below it and never collect; one that reaches it gets the usual pacing from then on.
const firstCollectionAt = 32 << 20

// deferFirstCollection keeps the garbage collector idle until the process holds limit bytes,
// then gives it back the settings it had (GOGC=100 unless the program changed them). A
// command that reads a stored run allocates most of what it will ever hold in its first few
// milliseconds, and the runtime would otherwise collect several times on the way to a heap
// it keeps anyway; for `explain` on a 200-call run that is about a quarter of its CPU time.
//
// It leaves the collector alone when GOGC or GOMEMLIMIT is set, so a user's choice wins.
// It is called from main only: tests build the command tree in their own process and keep
// the runtime's defaults.
func deferFirstCollection(limit int64) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	percent := debug.SetGCPercent(-1)
	memLimit := debug.SetMemoryLimit(limit)
	// The first collection, started by the limit, finds the sentinel unreachable and queues
	// the cleanup, which restores the settings; every later collection is paced as usual.
	// The limit goes back first, so whoever sees GOGC restored sees the limit lifted too.
	sentinel := new([64]byte)
	runtime.AddCleanup(sentinel, func(struct{}) {
		debug.SetMemoryLimit(memLimit)
		debug.SetGCPercent(percent)
	}, struct{}{})
}
