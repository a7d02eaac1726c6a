//go:build !unix

// Process CPU time is not measured off unix; the metric then reads 0.

package flow_test

func cpuNanos() int64 { return 0 }
