// The best-N keeper against a full sort, and the blob round trip.

package vec

import (
	"math/rand/v2"
	"sort"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestBestMatchesAFullSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for trial := range 200 {
		n := rng.IntN(40)
		k := rng.IntN(12)
		var all []Hit
		best := NewBest(k)
		for i := range n {
			h := Hit{ID: "p" + strconv.Itoa(i), Score: float64(rng.IntN(5)) / 4} // many ties
			all = append(all, h)
			best.Offer(h)
		}
		sort.Slice(all, func(i, j int) bool { return Better(all[i], all[j]) })
		want := all[:min(k, n)]
		if diff := cmp.Diff(append([]Hit{}, want...), append([]Hit{}, best.Sorted()...)); diff != "" {
			t.Fatalf("trial %d (n=%d k=%d) (-want +got):\n%s", trial, n, k, diff)
		}
	}
}

func TestBlobRoundTrip(t *testing.T) {
	v := []float32{1.5, -2, 0, 3.25}
	got, err := Decode(nil, Encode(v), 4)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(v, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, err := Decode(nil, Encode(v), 3); err == nil {
		t.Error("a blob of the wrong length was read")
	}
	if _, err := Normalize([]float32{0, 0}); err == nil {
		t.Error("a zero vector was normalized")
	}
}
