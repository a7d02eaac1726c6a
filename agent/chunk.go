// Chunked copies: many small copies a run keeps (blob bytes, request spans,
// tool-call arguments) are carved out of a few growing chunks instead of
// one allocation each. A chunk lives as long as whatever holds a piece of it
// (the run's record, a checkpoint); nothing is shared between runs.

package agent

// chunk hands out copies of small slices from one backing array at a time.
// Each copy is capacity-clipped, so an append by its holder copies instead
// of writing into the next copy. The zero value is ready; a chunk is not
// safe for concurrent use (its owner holds the lock that guards it).
type chunk[T any] struct {
	buf []T
	// next is the size of the next backing array; it doubles up to limit.
	next int
}

// copyOf returns a copy of s (nil for an empty s), from the current backing
// array when it has room. first is the size of the first array and limit
// the largest; a slice longer than a quarter of limit gets an allocation of its own.
func (c *chunk[T]) copyOf(s []T, first, limit int) []T {
	if len(s) == 0 {
		return nil
	}
	if len(s) > limit/4 {
		return append([]T(nil), s...)
	}
	if cap(c.buf)-len(c.buf) < len(s) {
		if c.next == 0 {
			c.next = first
		}
		n := max(c.next, len(s))
		c.buf = make([]T, 0, n)
		c.next = min(2*c.next, limit)
	}
	off := len(c.buf)
	c.buf = append(c.buf, s...)
	return c.buf[off:len(c.buf):len(c.buf)]
}
