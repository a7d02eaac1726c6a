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
	// carved counts the elements handed out of backing arrays (not those
	// given their own allocation, nor those given back).
	carved int
}

// copyOf returns a copy of s (nil for an empty s), from the current backing
// array when it has room. first is the size of the first array and limit
// the largest; a slice longer than a quarter of limit gets an allocation of its own.
func (c *chunk[T]) copyOf(s []T, first, limit int) []T {
	out := c.take(len(s), first, limit)
	copy(out, s)
	return out
}

// take returns n elements (nil for n == 0), capacity-clipped, carved as
// copyOf carves its copies; the caller overwrites all of them before
// handing them out.
func (c *chunk[T]) take(n, first, limit int) []T {
	if n == 0 {
		return nil
	}
	if n > limit/4 {
		return make([]T, n)
	}
	if cap(c.buf)-len(c.buf) < n {
		if c.next == 0 {
			c.next = first
		}
		c.buf = make([]T, 0, max(c.next, n))
		c.next = min(2*c.next, limit)
	}
	off := len(c.buf)
	c.buf = c.buf[:off+n]
	c.carved += n
	return c.buf[off : off+n : off+n]
}

// giveBack returns the last n elements take handed out, when the caller
// has not handed them out, so the next take reuses them.
func (c *chunk[T]) giveBack(last []T) {
	n := len(last)
	if n == 0 || n > len(c.buf) || &c.buf[len(c.buf)-n] != &last[0] {
		return // not the chunk's last piece (or an allocation of its own)
	}
	c.buf = c.buf[:len(c.buf)-n]
	c.carved -= n
}
