//go:build !unix

// This file stands in for CPUTime where getrusage does not exist.

package wiretest

import "time"

// CPUTime returns 0: the process CPU time is not read on this platform.
func CPUTime() time.Duration { return 0 }
