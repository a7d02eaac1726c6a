// The run's arenas: the small pieces a commit is made of (the commit, its
// ops, detail, reads, control edge) and its runtime stage id, carved from
// larger chunks so a commit costs few allocations of its own.

package flow

import "unsafe"

// slab hands out small exact-size slices carved from larger chunks, so a
// commit's reads, ops and control edge cost no allocation of their own.
// Only the run's goroutine uses it.
type slab struct {
	decs    []Decision
	evs     []RuleEvidence
	cms     []Commit
	cmChunk int
	dets    []CommitDetail
	detN    int
	// current chunk sizes: each starts small and doubles up to a cap, so a
	// short run allocates little and a long one few, larger chunks.
	decN, evN, strN, opN, ctlN int
	strs                       []string
	opv                        []Op
	ctls                       []Control
	// subflow records, their commit lists and mount refs, one set per mount
	recs             []Record
	ptrs             []*Commit
	refs             []SubflowRef
	recN, ptrN, refN int
}

const slabChunk = 256

func grow(cur, lo, hi int) int { return min(max(cur*2, lo), hi) }

// commit returns a zeroed commit from the current chunk; chunks grow from 4
// to 512 commits so short runs stay small. 512 commits are 32 KiB, the
// largest object the allocator still serves from its small-object caches.
func (sb *slab) commit() *Commit { return carve(&sb.cms, &sb.cmChunk, 4, 512) }

// carve returns the next zeroed element of *free, first making a chunk of
// grow(*size, lo, hi) elements when *free is empty.
func carve[T any](free *[]T, size *int, lo, hi int) *T {
	if len(*free) == 0 {
		*size = grow(*size, lo, hi)
		*free = make([]T, *size)
	}
	p := &(*free)[0]
	*free = (*free)[1:]
	return p
}

// detail returns a copy of d carved from the current chunk.
func (sb *slab) detail(d CommitDetail) *CommitDetail {
	p := carve(&sb.dets, &sb.detN, 4, slabChunk/4)
	*p = d
	return p
}

func (sb *slab) decision() *Decision { return carve(&sb.decs, &sb.decN, 2, slabChunk/4) }

// evidence returns an empty slice with room for n rule evidences.
func (sb *slab) evidence(n int) []RuleEvidence {
	if n > slabChunk/8 {
		return make([]RuleEvidence, 0, n)
	}
	if len(sb.evs) < n {
		sb.evN = grow(sb.evN, 4, slabChunk/4)
		if sb.evN < n {
			return make([]RuleEvidence, 0, n)
		}
		sb.evs = make([]RuleEvidence, sb.evN)
	}
	out := sb.evs[:0:n]
	sb.evs = sb.evs[n:]
	return out
}

func (sb *slab) strings(src []string) []string {
	n := len(src)
	if n == 0 {
		return nil
	}
	if n > slabChunk/4 {
		return append([]string(nil), src...)
	}
	if len(sb.strs) < n {
		sb.strN = grow(sb.strN, 8, slabChunk)
		if sb.strN < n {
			return append([]string(nil), src...)
		}
		sb.strs = make([]string, sb.strN)
	}
	out := sb.strs[:n:n]
	sb.strs = sb.strs[n:]
	copy(out, src)
	return out
}

func (sb *slab) ops(src []Op) []Op {
	n := len(src)
	if n == 0 {
		return nil
	}
	if n > slabChunk/8 {
		return append([]Op(nil), src...)
	}
	if len(sb.opv) < n {
		sb.opN = grow(sb.opN, 4, slabChunk/2)
		if sb.opN < n {
			return append([]Op(nil), src...)
		}
		sb.opv = make([]Op, sb.opN)
	}
	out := sb.opv[:n:n]
	sb.opv = sb.opv[n:]
	copy(out, src)
	return out
}

func (sb *slab) control(c Control) *Control {
	p := carve(&sb.ctls, &sb.ctlN, 2, slabChunk/4)
	*p = c
	return p
}

// record returns an empty record carved from the current chunk.
func (sb *slab) record(runID, chartID string, kinds map[string]keyKind) *Record {
	r := carve(&sb.recs, &sb.recN, 2, slabChunk/16)
	r.RunID, r.ChartID, r.kinds = runID, chartID, kinds
	return r
}

// commitList returns an empty commit list with room for n commits, carved
// from the current chunk when small (appending past n moves it out).
func (sb *slab) commitList(n int) []*Commit {
	if n > slabChunk/8 {
		return make([]*Commit, 0, n)
	}
	if len(sb.ptrs) < n {
		sb.ptrN = grow(sb.ptrN, 16, slabChunk)
		sb.ptrs = make([]*Commit, sb.ptrN)
	}
	out := sb.ptrs[:0:n]
	sb.ptrs = sb.ptrs[n:]
	return out
}

// subflowRef returns a copy of ref carved from the current chunk.
func (sb *slab) subflowRef(ref SubflowRef) *SubflowRef {
	p := carve(&sb.refs, &sb.refN, 2, slabChunk/8)
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
	buf []byte
	n   int // current chunk size: doubles from 256 bytes up to 8 KiB
}

func (a *idArena) string(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > 512 {
		return string(b)
	}
	if cap(a.buf)-len(a.buf) < len(b) {
		a.n = grow(a.n, 256, 8<<10)
		a.buf = make([]byte, 0, a.n)
	}
	start := len(a.buf)
	a.buf = append(a.buf, b...)
	return unsafe.String(&a.buf[start], len(b))
}
