// Package vec holds what every exact index shares: the float32 blob
// encoding, normalization, the dot product and a bounded best-N keeper.
package vec

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"
)

// Encode returns v as little-endian float32 bytes, 4 per dimension.
func Encode(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

// Decode reads a blob written by Encode into dst (grown as needed) and
// refuses a length that is not dims*4.
func Decode(dst []float32, b []byte, dims int) ([]float32, error) {
	if len(b) != 4*dims {
		return nil, fmt.Errorf("a vector blob of %d bytes is not %d dimensions of 4 bytes", len(b), dims)
	}
	if cap(dst) < dims {
		dst = make([]float32, dims)
	}
	dst = dst[:dims]
	for i := range dst {
		dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return dst, nil
}

// Normalize returns a unit-length copy of v, or an error for a zero,
// NaN or infinite vector (whose cosine means nothing).
func Normalize(v []float32) ([]float32, error) {
	var sum float64
	for _, x := range v {
		f := float64(x)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("the vector holds %v", x)
		}
		sum += f * f
	}
	if sum == 0 {
		return nil, fmt.Errorf("the vector is all zeros")
	}
	n := math.Sqrt(sum)
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(float64(x) / n)
	}
	return out, nil
}

// Dot returns the dot product of two vectors of the same length, which is
// their cosine when both are normalized.
func Dot(a, b []float32) float64 {
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return float64(s)
}

// Hit is one scored id.
type Hit struct {
	ID    string
	Score float64
}

// Better orders hits: higher score first, then lower id, so equal scores
// rank the same way in every index.
func Better(a, b Hit) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	return a.ID < b.ID
}

// Best keeps the n best hits offered to it, in a min-heap on Better.
type Best struct {
	n int
	h []Hit
}

// NewBest returns a keeper of the n best hits (n < 1 keeps none).
func NewBest(n int) *Best { return &Best{n: n, h: make([]Hit, 0, max(n, 0))} }

// Offer considers one hit.
func (b *Best) Offer(h Hit) {
	if b.n < 1 {
		return
	}
	if len(b.h) < b.n {
		b.h = append(b.h, h)
		b.up(len(b.h) - 1)
		return
	}
	if Better(h, b.h[0]) {
		b.h[0] = h
		b.down(0)
	}
}

// Sorted returns the kept hits, best first.
func (b *Best) Sorted() []Hit {
	out := append([]Hit(nil), b.h...)
	sort.Slice(out, func(i, j int) bool { return Better(out[i], out[j]) })
	return out
}

// worse reports whether hit i is worse than hit j (the heap's order).
func (b *Best) worse(i, j int) bool { return Better(b.h[j], b.h[i]) }

func (b *Best) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !b.worse(i, p) {
			return
		}
		b.h[i], b.h[p] = b.h[p], b.h[i]
		i = p
	}
}

func (b *Best) down(i int) {
	for {
		l, m := 2*i+1, i
		if l < len(b.h) && b.worse(l, m) {
			m = l
		}
		if r := l + 1; r < len(b.h) && b.worse(r, m) {
			m = r
		}
		if m == i {
			return
		}
		b.h[i], b.h[m] = b.h[m], b.h[i]
		i = m
	}
}
