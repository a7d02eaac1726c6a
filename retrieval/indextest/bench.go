// Benchmark helpers: a fast deterministic corpus of random unit vectors and
// the query loop every index is measured with.

package indextest

import (
	"context"
	"math/rand/v2"
	"runtime"
	"strconv"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/retrieval"
)

// benchDims is the vector length the benchmarks use (a common small
// sentence-embedding size).
const benchDims = 384

// Bench measures an index: it opens one for 384-dimension vectors (a common
// small sentence-embedding size) with open, which closes it when b ends,
// fills it with n passages of seeded random vectors, and measures top-10
// queries against it, reporting the heap the process holds after filling
// (heap-MB) besides the usual allocations.
func Bench(b *testing.B, n int, open func(b *testing.B, dims int) retrieval.Index) {
	b.Helper()
	idx := open(b, benchDims)
	fill(b, idx, n, benchDims)
	search(b, idx, benchDims)
}

// fill puts n passages with seeded random vectors of dims dimensions into
// idx, in batches of 1000.
func fill(b *testing.B, idx retrieval.Index, n, dims int) {
	b.Helper()
	rng := rand.New(rand.NewPCG(1, uint64(n)))
	batch := make([]retrieval.Entry, 0, 1000)
	for i := range n {
		v := make([]float32, dims)
		for j := range v {
			v[j] = float32(rng.NormFloat64())
		}
		batch = append(batch, retrieval.Entry{
			Passage: retrieval.Passage{ID: "p" + strconv.Itoa(i), Source: "bench", Text: "passage " + strconv.Itoa(i)},
			Vector:  v,
		})
		if len(batch) == cap(batch) || i == n-1 {
			if err := idx.Put(context.Background(), batch...); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
}

// search measures top-10 queries against idx.
func search(b *testing.B, idx retrieval.Index, dims int) {
	b.Helper()
	rng := rand.New(rand.NewPCG(2, 2))
	q := make([]float32, dims)
	for j := range q {
		q[j] = float32(rng.NormFloat64())
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		got, err := idx.Search(context.Background(), q, 10)
		if err != nil || len(got) != 10 {
			b.Fatalf("search: %d hits, %v", len(got), err)
		}
	}
	b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "heap-MB")
}
