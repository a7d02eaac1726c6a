//go:build unix

// This file reads the process's CPU time, so benchmarks can report a
// per-core figure that other load on the machine does not dilute.

package wiretest

import (
	"syscall"
	"time"
)

// CPUTime returns the user+system CPU time this process has used so far.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
