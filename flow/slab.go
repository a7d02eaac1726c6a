// The run's arenas: the small pieces a commit is made of (the commit, its
// ops, detail, reads, control edge) and its runtime stage id, carved from
// larger chunks so a commit costs few allocations of its own.

package flow

import (
	"slices"
	"sync/atomic"
	"unsafe"
)

// slab hands out the pieces of a run's commits carved from larger chunks,
// so a commit's reads, ops and control edge cost no allocation of their
// own. Only the run's goroutine uses it.
type slab struct {
	cms  pool[Commit]
	dets pool[CommitDetail]
	decs pool[Decision]
	evs  pool[RuleEvidence]
	strs pool[string]
	// opv is the free op room; opOwner the scope staging into it, if any.
	opv     pool[Op]
	opOwner *Scope
	ctls    pool[Control]
	// subflow records, their commit lists and mount refs, one set per mount
	recs pool[Record]
	ptrs pool[*Commit]
	refs pool[SubflowRef]
}

// Each pool's chunks start at its lo pieces and double up to its hi.
const (
	cmLo, cmHi   = 4, 512 // 512 commits are 32 KiB, the largest small object
	detLo, detHi = 4, 64
	decLo, decHi = 2, 64
	evLo, evHi   = 4, 64
	strLo, strHi = 8, 256
	opLo, opHi   = 4, 256 // 256 ops are 14 KiB
	ctlLo, ctlHi = 2, 64
	recLo, recHi = 2, 16
	ptrLo, ptrHi = 16, 256
	refLo, refHi = 2, 32
)

func grow(cur, lo, hi int) int { return min(max(cur*2, lo), hi) }

// pool is one kind of piece: the free room of its current chunk, the size
// of the next chunk, and how many pieces the run has taken from it.
type pool[T any] struct {
	free []T
	size int
	made int // pieces in the chunks made so far, less the room thrown away
}

// chunk returns at least n zeroed pieces: as many as the allocator's size
// class for n holds, which costs nothing more.
func chunk[T any](n int) []T {
	c := slices.Grow([]T(nil), n)
	return c[:cap(c)]
}

// refill replaces the free room with a chunk of at least n pieces.
func (p *pool[T]) refill(n, lo, hi int) {
	p.size = grow(p.size, lo, hi)
	p.made -= len(p.free)
	p.free = chunk[T](max(p.size, n))
	p.made += len(p.free)
}

// one returns the next zeroed piece.
func (p *pool[T]) one(lo, hi int) *T {
	if len(p.free) == 0 {
		p.refill(1, lo, hi)
	}
	x := &p.free[0]
	p.free = p.free[1:]
	return x
}

// take returns the next n zeroed pieces, capacity-clipped.
func (p *pool[T]) take(n, lo, hi int) []T {
	if len(p.free) < n {
		p.refill(n, lo, hi)
	}
	out := p.free[:n:n]
	p.free = p.free[n:]
	return out
}

// used is how many pieces the run has taken.
func (p *pool[T]) used() int32 { return int32(p.made - len(p.free)) }

// prime starts the pool with one chunk of n pieces, from which the later
// chunks double up to hi. The hint is what a run took, so the chunk may be
// larger than hi, up to primeMax bytes: a run like the last then needs no
// second chunk, which for a run just past hi would be mostly waste.
func (p *pool[T]) prime(n int32, hi int) {
	if n <= 0 {
		return
	}
	var zero T
	p.free = chunk[T](min(int(n), max(hi, primeMax/max(int(unsafe.Sizeof(zero)), 1))))
	p.size, p.made = min(len(p.free), hi), len(p.free)
}

// primeMax is the largest first chunk a hint makes, 32 KiB: the largest
// object the allocator serves from its per-size caches.
const primeMax = 32 << 10

// runHint is how many pieces of each kind a chart's latest run took from
// its slab, so the next run's first chunks have the right size: a short run
// then makes one chunk of each, not four doubling ones. Runs of a chart may
// run at once, so it is atomic; it sizes buffers only, never what a run
// records.
type runHint struct {
	n [nPools]atomic.Int32
	// top is the top-level log's length; lists[i] how many elements were
	// appended to list key i.
	top, ids atomic.Int32
	lists    []atomic.Int32
}

// store sets v to n unless it already holds n (a store dirties the cache
// line the chart's other runs read).
func store(v *atomic.Int32, n int32) {
	if v.Load() != n {
		v.Store(n)
	}
}

// keepLists stores how far e's list keys grew into its chart's hint.
func (e *exec) keepLists() {
	for _, i := range e.chart.listSlots {
		store(&e.chart.hint.lists[i], int32(e.chart.kinds[i].grown(e.state[i].back)))
	}
}

const nPools = 10

func (sb *slab) counts() [nPools]int32 {
	return [nPools]int32{sb.cms.used(), sb.dets.used(), sb.decs.used(), sb.evs.used(), sb.strs.used(),
		sb.opv.used(), sb.ctls.used(), sb.recs.used(), sb.ptrs.used(), sb.refs.used()}
}

// prime sizes the slab's first chunks from h.
func (sb *slab) prime(h *runHint) {
	sb.cms.prime(h.n[0].Load(), cmHi)
	sb.dets.prime(h.n[1].Load(), detHi)
	sb.decs.prime(h.n[2].Load(), decHi)
	sb.evs.prime(h.n[3].Load(), evHi)
	sb.strs.prime(h.n[4].Load(), strHi)
	sb.opv.prime(h.n[5].Load(), opHi)
	sb.ctls.prime(h.n[6].Load(), ctlHi)
	sb.recs.prime(h.n[7].Load(), recHi)
	sb.ptrs.prime(h.n[8].Load(), ptrHi)
	sb.refs.prime(h.n[9].Load(), refHi)
}

// prime sizes the run's first arena chunks from h.
func (r *run) prime(h *runHint) {
	r.slab.prime(h)
	r.ids.prime(h.ids.Load())
}

// keep stores what the run took from its arenas into h.
func (r *run) keep(h *runHint) {
	r.slab.keep(h)
	store(&h.ids, r.ids.used())
}

// keep stores what the run took into h, for the chart's next run.
func (sb *slab) keep(h *runHint) {
	for i, n := range sb.counts() {
		store(&h.n[i], n)
	}
}

// commit returns a zeroed commit.
func (sb *slab) commit() *Commit { return sb.cms.one(cmLo, cmHi) }

// detail returns a slab copy of d.
func (sb *slab) detail(d CommitDetail) *CommitDetail {
	p := sb.dets.one(detLo, detHi)
	*p = d
	return p
}

func (sb *slab) decision() *Decision { return sb.decs.one(decLo, decHi) }

// evidence returns an empty slice with room for n rule evidences.
func (sb *slab) evidence(n int) []RuleEvidence {
	if n > evHi/2 {
		return make([]RuleEvidence, 0, n)
	}
	return sb.evs.take(n, evLo, evHi)[:0]
}

// strings returns a slab copy of src.
func (sb *slab) strings(src []string) []string {
	n := len(src)
	if n == 0 {
		return nil
	}
	if n > strHi/4 {
		return append([]string(nil), src...)
	}
	out := sb.strs.take(n, strLo, strHi)
	copy(out, src)
	return out
}

// ops returns a slab copy of src, for ops staged outside the slab (the input
// commit's, a fork child's, a big stage's).
func (sb *slab) ops(src []Op) []Op {
	n := len(src)
	if n == 0 {
		return nil
	}
	if n > opHi/4 || sb.opOwner != nil {
		// Too big for a chunk, or a scope is staging into the free room.
		return append([]Op(nil), src...)
	}
	out := sb.opv.take(n, opLo, opHi)
	copy(out, src)
	return out
}

// roomForOp makes room for one more op in s.ops, which is full. A stage on
// the run's goroutine stages its ops straight into the slab's free room, so
// its commit keeps them where they were written, with no copy: the first
// staged op claims the room (one scope at a time: a mount's scope may be
// open while its subflow's stages run), and a small stage that outgrows it
// moves to a fresh chunk. A stage writing many ops, and any stage that
// cannot claim the room, stages into the scope's own reused buffer and its
// commit copies them, so a big stage does not leave chunks behind.
func (s *Scope) roomForOp() {
	if s.par {
		return
	}
	sb := &s.e.r.slab
	n := len(s.ops)
	switch {
	case sb.opOwner == s && n < opHi/8:
		sb.opv.refill(2*(n+1), opLo, opHi)
		copy(sb.opv.free, s.ops)
		s.ops = sb.opv.free[:n:len(sb.opv.free)]
	case sb.opOwner == s:
		sb.opOwner = nil
		s.ops = append(append(s.opBuf[:0], s.ops...), Op{})[:n]
	case sb.opOwner == nil && n == 0:
		if len(sb.opv.free) == 0 {
			sb.opv.refill(1, opLo, opHi)
		}
		sb.opOwner = s
		s.ops = sb.opv.free[:0:len(sb.opv.free)]
	case n == 0:
		s.ops = s.opBuf[:0]
	}
}

// commitOps returns the ops s staged, for its commit: in place when they
// sit in the slab's free room (which then starts after them), else a slab
// copy. Either way the scope's next stage starts with no ops.
func (sb *slab) commitOps(s *Scope) []Op {
	if sb.opOwner != s {
		ops := sb.ops(s.ops)
		if cap(s.ops) > cap(s.opBuf) {
			s.opBuf = s.ops[:0]
		}
		s.ops = nil
		return ops
	}
	n := len(s.ops)
	out := sb.opv.free[:n:n]
	sb.opv.free = sb.opv.free[n:]
	sb.opOwner, s.ops = nil, nil
	if n == 0 {
		return nil
	}
	return out
}

// control returns a zeroed control edge.
func (sb *slab) control() *Control { return sb.ctls.one(ctlLo, ctlHi) }

// record returns an empty record.
func (sb *slab) record(runID, chartID string, kinds map[string]keyKind) *Record {
	r := sb.recs.one(recLo, recHi)
	r.RunID, r.ChartID, r.kinds = runID, chartID, kinds
	return r
}

// commitList returns an empty commit list with room for n commits, carved
// from the current chunk when small (appending past n moves it out).
func (sb *slab) commitList(n int) []*Commit {
	if n > ptrHi/8 {
		return make([]*Commit, 0, n)
	}
	return sb.ptrs.take(n, ptrLo, ptrHi)[:0]
}

// subflowRef returns a slab copy of ref.
func (sb *slab) subflowRef(ref SubflowRef) *SubflowRef {
	p := sb.refs.one(refLo, refHi)
	*p = ref
	return p
}

// idArena turns runtime stage ids into strings carved from shared byte
// chunks: one allocation per chunk instead of one per commit (the ids are
// most of a loop's small allocations), and the chunks hold no pointers, so
// the collector never scans them. Bytes are only ever appended past the
// chunk's length, never rewritten, which is what makes the strings
// immutable. Only the run's goroutine uses it.
type idArena struct {
	buf  []byte
	n    int // current chunk size: doubles from 256 bytes up to 8 KiB
	made int // bytes in the chunks made so far, less the room thrown away
}

// room makes sure the arena's chunk has room for n more bytes; false
// means n is more than a chunk holds.
func (a *idArena) room(n int) bool {
	if cap(a.buf)-len(a.buf) >= n {
		return true
	}
	if n > 512 {
		return false
	}
	a.n = grow(a.n, 256, 8<<10)
	a.made -= cap(a.buf) - len(a.buf)
	a.buf = make([]byte, 0, a.n)
	a.made += a.n
	return true
}

// used is how many bytes the run's ids took.
func (a *idArena) used() int32 { return int32(a.made - (cap(a.buf) - len(a.buf))) }

// prime starts the arena with one chunk of n bytes (at most 8 KiB).
func (a *idArena) prime(n int32) {
	if n <= 0 {
		return
	}
	a.n = min(int(n), 8<<10)
	a.buf = make([]byte, 0, a.n)
	a.made = a.n
}
