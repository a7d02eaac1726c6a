// Query latency of the PostgreSQL exact scan at 10⁴ and 10⁵ passages of 384
// dimensions (needs AGENTFOOTPRINT_TEST_POSTGRES).

package pgvec_test

import (
	"strconv"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/retrieval"
	"github.com/agentfootprint/agentfootprint-go/retrieval/indextest"
)

func BenchmarkSearch(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run("postgres/n="+strconv.Itoa(n), func(b *testing.B) {
			indextest.Bench(b, n, func(b *testing.B, dims int) retrieval.Index {
				return open(b, freshSchema(b), "bench", dims)
			})
		})
	}
}
