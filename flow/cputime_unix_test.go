//go:build unix

// Process CPU time for benchmarks, so figures stay meaningful on a shared,
// busy machine where wall time includes waiting for a core.

package flow_test

import "syscall"

// cpuNanos returns the user+system CPU time this process has used.
func cpuNanos() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
