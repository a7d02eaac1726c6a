package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

// gcPercent reads the collector's GOGC setting without changing it.
func gcPercent() int {
	p := debug.SetGCPercent(-1)
	debug.SetGCPercent(p)
	return p
}

// goMemory is the memory the Go runtime holds now, the figure a memory limit is held to.
func goMemory() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64() - s[1].Value.Uint64())
}

// restoreCollector puts back the settings the test process started with.
func restoreCollector(t *testing.T) {
	percent := gcPercent()
	limit := debug.SetMemoryLimit(-1)
	t.Cleanup(func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	})
}

func TestDeferFirstCollectionHandsBackAtTheLimit(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	restoreCollector(t)
	debug.SetGCPercent(100)
	debug.SetMemoryLimit(math.MaxInt64)
	runtime.GC()

	limit := goMemory() + 24<<20
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	deferFirstCollection(limit)
	if p := gcPercent(); p != -1 {
		t.Fatalf("GOGC after deferFirstCollection = %d, want -1 (off until the limit)", p)
	}
	if l := debug.SetMemoryLimit(-1); l != limit {
		t.Fatalf("memory limit = %d, want %d", l, limit)
	}

	// Well under the limit: no collection runs.
	var kept [][]byte
	for range 8 {
		kept = append(kept, make([]byte, 1<<20))
	}
	var mid runtime.MemStats
	runtime.ReadMemStats(&mid)
	if mid.NumGC != before.NumGC {
		t.Fatalf("%d collections ran with 8 MiB allocated under a limit 24 MiB away, want none", mid.NumGC-before.NumGC)
	}

	// Past the limit the collector runs, and the settings come back.
	for range 48 {
		kept = append(kept, make([]byte, 1<<20))
	}
	deadline := time.Now().Add(10 * time.Second)
	for gcPercent() != 100 {
		if time.Now().After(deadline) {
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			t.Fatalf("GOGC still %d 10 s after passing the limit (%d collections ran)", gcPercent(), after.NumGC-before.NumGC)
		}
		kept = append(kept[:8], make([]byte, 1<<20))
		time.Sleep(time.Millisecond)
	}
	if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
		t.Errorf("memory limit after the first collection = %d, want it lifted (%d)", l, int64(math.MaxInt64))
	}
	runtime.KeepAlive(kept)
}

func TestDeferFirstCollectionLeavesAUsersSetting(t *testing.T) {
	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Run(env, func(t *testing.T) {
			t.Setenv("GOGC", "")
			t.Setenv("GOMEMLIMIT", "")
			t.Setenv(env, "50")
			restoreCollector(t)
			debug.SetGCPercent(100)
			debug.SetMemoryLimit(math.MaxInt64)
			deferFirstCollection(1 << 30)
			if p := gcPercent(); p != 100 {
				t.Errorf("GOGC = %d with %s set, want it untouched (100)", p, env)
			}
			if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
				t.Errorf("memory limit = %d with %s set, want it untouched", l, env)
			}
		})
	}
}
