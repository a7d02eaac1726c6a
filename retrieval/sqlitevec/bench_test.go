// Query latency of the SQLite exact scan at 10⁴ and 10⁵ passages of 384
// dimensions, against the in-memory index measured in the same run.

package sqlitevec_test

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/retrieval"
	"github.com/agentfootprint/agentfootprint-go/retrieval/indextest"
	"github.com/agentfootprint/agentfootprint-go/retrieval/sqlitevec"
)

func BenchmarkSearch(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run("memory/n="+strconv.Itoa(n), func(b *testing.B) {
			indextest.Bench(b, n, func(b *testing.B, dims int) retrieval.Index {
				idx, err := retrieval.NewMemoryIndex(dims)
				if err != nil {
					b.Fatal(err)
				}
				return idx
			})
		})
		b.Run("sqlite/n="+strconv.Itoa(n), func(b *testing.B) {
			indextest.Bench(b, n, func(b *testing.B, dims int) retrieval.Index {
				idx, err := sqlitevec.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"), "bench", dims)
				if err != nil {
					b.Fatal(err)
				}
				b.Cleanup(func() { idx.Close() })
				return idx
			})
		})
	}
}
