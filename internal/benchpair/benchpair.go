// Package benchpair runs the two sides of a side-by-side benchmark in
// blocks, so that each side pays for collecting its own garbage.
//
// A benchmark that compares two loops by the process's CPU time also counts
// the garbage collector's background work, which runs beside whichever loop
// is running when a cycle starts. Interleaved one run at a time, a cycle's
// cost falls on either side by chance; in blocks of several runs, each side's
// block right after the other's and the order flipped from one pair of
// blocks to the next, each side pays for its own cycles and what spills past
// a block's end falls on both alike.
package benchpair

// Run calls a(k) and b(k) for blocks of k runs until n runs of each are done,
// a first in even pairs of blocks and b first in odd ones. A block is block
// runs (at least 1); the last pair may be shorter.
func Run(n, block int, a, b func(k int)) {
	block = max(block, 1)
	for done, pair := 0, 0; done < n; pair++ {
		k := min(block, n-done)
		if pair%2 == 0 {
			a(k)
			b(k)
		} else {
			b(k)
			a(k)
		}
		done += k
	}
}
