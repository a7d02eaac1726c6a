// This file holds the delta forms (layout version 2): a run's record, events and blobs
// written as a delta on the run stored before it in the same conversation, and the reading
// of them back through the rows they name.
//
// The base of a delta is a run's view: its record, its events and its blobs (in the order of
// its blob list) rebuilt and laid end to end. A run's record is a delta on the view of the run
// before it; its events on that view and its own record; a blob row on the view of the run
// before its writer and the writer's record and events. A form names the runs it needs by id
// and version (a run row written again keeps its earlier version for the forms that name it),
// carries its depth (how many deltas deep it is: a form of depth d only reads forms of lower
// depth through its base, so no row can make a reader loop) and the CRC-32 of the bytes it
// rebuilds (a damaged base shows as a mismatch, not as wrong bytes).

package stored

import (
	"encoding/binary"
	"hash/crc32"
	"slices"

	"github.com/agentfootprint/agentfootprint-go/store"
)

// deltaVersion is the layout version of a delta form.
const deltaVersion = 2

// flagDelta marks a form of layout version 2 as a delta (with flagDeflate when compressed).
const flagDelta = 1 << 3

// MaxDepth is the deepest delta a store writes: the run after a chain this deep is written
// whole again, so reading any run rebuilds at most MaxDepth runs before it.
const MaxDepth = 32

// maxBase is the largest view a run is written as a delta on; a larger one is not used (its
// index and the reader's copy would cost more than the delta saves).
const maxBase = 16 << 20

// The kinds of delta form: what its base is.
const (
	kindRecord = 'R' // the view of the previous run
	kindEvents = 'E' // ... and the run's own record
	kindBlob   = 'O' // the view of the run before the writer, the writer's record and events
)

// Ref names one version of a run row.
type Ref struct {
	ID      string
	Version uint64
}

// Base is the run a new run is written as a delta on: its row's version and its view.
type Base struct {
	Ref
	// View is the base run's record, events and blobs, rebuilt and laid end to end.
	View []byte
	// Depth is the deepest form among the base run's values (0: none is a delta).
	Depth int
}

// deltaHeader is the parsed header of a delta form.
type deltaHeader struct {
	depth int
	kind  byte
	ref   Ref // kindRecord, kindEvents: the previous run; kindBlob: the writer
	sum   uint32
	body  []byte
	flate bool
}

// IsDelta reports whether a form is a delta form (layout version 2).
func IsDelta(form []byte) bool {
	return IsForm(form) && len(form) > len(marker) && form[len(marker)] == deltaVersion
}

func appendRef(b []byte, r Ref) []byte {
	b = binary.AppendUvarint(b, uint64(len(r.ID)))
	b = append(b, r.ID...)
	return binary.AppendUvarint(b, r.Version)
}

// deltaForm writes the delta form of v on base, or returns nil when it would not be smaller
// than v, unless always is set. (A run's record is always written as a delta when the run
// is: its header names the run before, which the run's blobs are read through.)
func (z *deflater) deltaForm(v []byte, enc *deltaEncoder, kind byte, ref Ref, depth int, always bool) []byte {
	body := binary.AppendUvarint(make([]byte, 0, 64), uint64(len(v)))
	body = enc.encode(body, v)
	flags := byte(flagDelta)
	if zb := z.deflate(body, nil, dictID{}); len(zb) < len(body) {
		body, flags = zb, flags|flagDeflate
	}
	form := append([]byte(nil), marker...)
	form = append(form, deltaVersion, flags)
	form = binary.AppendUvarint(form, uint64(depth))
	form = append(form, kind)
	form = appendRef(form, ref)
	form = binary.BigEndian.AppendUint32(form, crc32.ChecksumIEEE(v))
	form = append(form, body...)
	if len(form) >= len(v) && !always {
		return nil
	}
	return form
}

// parseDeltaHeader reads a delta form's header.
func parseDeltaHeader(form []byte) (*deltaHeader, error) {
	if !IsDelta(form) {
		return nil, formErr("not a delta form")
	}
	rest := form[len(marker)+1:]
	if len(rest) < 1 {
		return nil, formErr("truncated header")
	}
	flags := rest[0]
	rest = rest[1:]
	if flags&^(flagDelta|flagDeflate) != 0 || flags&flagDelta == 0 {
		return nil, formErr("unknown flags %#x", flags)
	}
	h := &deltaHeader{flate: flags&flagDeflate != 0}
	d, k := binary.Uvarint(rest)
	if k <= 0 || d == 0 || d > MaxDepth {
		return nil, formErr("bad delta depth")
	}
	h.depth, rest = int(d), rest[k:]
	if len(rest) < 1 {
		return nil, formErr("truncated header")
	}
	h.kind, rest = rest[0], rest[1:]
	if h.kind != kindRecord && h.kind != kindEvents && h.kind != kindBlob {
		return nil, formErr("unknown delta kind %#x", h.kind)
	}
	n, k := binary.Uvarint(rest)
	if k <= 0 || n == 0 || n > uint64(len(rest)-k) || n > 1<<10 {
		return nil, formErr("bad run id in the header")
	}
	h.ref.ID, rest = string(rest[k:k+int(n)]), rest[k+int(n):]
	if h.ref.Version, k = binary.Uvarint(rest); k <= 0 {
		return nil, formErr("bad run version in the header")
	}
	rest = rest[k:]
	if len(rest) < 4 {
		return nil, formErr("truncated header")
	}
	h.sum, h.body = binary.BigEndian.Uint32(rest), rest[4:]
	return h, nil
}

// rebuild applies the delta of h on base.
func (in *inflater) rebuild(h *deltaHeader, base []byte, digests []string) ([]byte, error) {
	body := h.body
	if h.flate {
		var err error
		if body, err = in.inflate(body, nil, MaxValue+16); err != nil {
			return nil, formErr("delta: %v", err)
		}
	}
	total, k := binary.Uvarint(body)
	if k <= 0 || total > MaxValue {
		return nil, formErr("bad or oversized length")
	}
	out, err := applyDelta(body[k:], base, digests, int(total))
	if err != nil {
		return nil, formErr("delta on run %q: %v", h.ref.ID, err)
	}
	if crc32.ChecksumIEEE(out) != h.sum {
		return nil, formErr("delta on run %q rebuilds bytes that do not match their checksum", h.ref.ID)
	}
	return out, nil
}

// Source reads the rows a delta form names. A backend implements it over its tables (in the
// transaction of the read, when it has one).
type Source interface {
	// Run returns the stored columns of run ref.ID as written at ref.Version: its current row
	// when that is the version, else the earlier version kept for it. ok is false when
	// neither exists.
	Run(ref Ref) (row *StoredRun, ok bool, err error)
	// Chunks returns the data of the chunk rows under keys; a key it leaves out is missing.
	Chunks(keys []Key) (map[Key][]byte, error)
}

// StoredRun is what a run row holds, as stored: the record and events columns and its blob
// rows (sorted by digest), none of them rebuilt.
type StoredRun struct {
	Record, Events []byte
	Blobs          []store.Blob
}

// Reader rebuilds stored values, following delta forms to the rows they name. It is made for
// one read (it keeps nothing itself between reads; the cache it is given does) and is not
// safe for concurrent use.
type Reader struct {
	src   Source
	cache *ViewCache
	in    inflater
	// active are the writers whose blobs are being read (to refuse a loop), writers how
	// many were followed (to bound a read).
	active  map[Ref]bool
	writers int
}

// maxWriters bounds the writers of blobs one read follows.
const maxWriters = 4096

// NewReader returns a Reader over src that takes the views it needs from cache when cache
// holds them, and leaves there the ones it builds (cache may be nil).
func NewReader(src Source, cache *ViewCache) *Reader { return &Reader{src: src, cache: cache} }

// Run replaces the values of row (read as run self) with the bytes they rebuild. A value that
// is not a form is left as it is.
func (r *Reader) Run(self Ref, row *StoredRun) error {
	_, _, err := r.decodeRun(self, row, MaxDepth+1, true)
	return err
}

// Blob returns the bytes of the blob row kept under digest, whose stored data is data.
func (r *Reader) Blob(digest string, data []byte) ([]byte, error) {
	if !BlobIsForm(digest, data) {
		return data, nil
	}
	if !IsDelta(data) {
		b := data
		if err := r.chunkForms([]*[]byte{&b}); err != nil {
			return nil, err
		}
		return b, nil
	}
	h, err := parseDeltaHeader(data)
	if err != nil {
		return nil, err
	}
	if h.kind != kindBlob {
		return nil, formErr("blob %s: a delta form of kind %q", digest, h.kind)
	}
	base, digests, err := r.writerBase(h.ref, h.depth)
	if err != nil {
		return nil, err
	}
	return r.in.rebuild(h, base, digests)
}

// View returns the view of run ref (its record, events and blobs rebuilt, end to end) and the
// deepest form among them, for a new run written as a delta on it.
func (r *Reader) View(ref Ref) (*Base, error) {
	if b := r.cache.Get(ref); b != nil {
		return b, nil
	}
	row, ok, err := r.src.Run(ref)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, formErr("run %q version %d is missing", ref.ID, ref.Version)
	}
	depth, _, err := r.decodeRun(ref, row, MaxDepth+1, true)
	if err != nil {
		return nil, err
	}
	b := &Base{Ref: ref, View: ViewOf(row.Record, row.Events, row.Blobs), Depth: depth}
	r.cache.Put(b)
	return b, nil
}

// DigestsOf returns the digests of blobs (sorted by digest, as a run row lists them), each
// once: the list a delta form names a blob digest by its index in.
func DigestsOf(blobs []store.Blob) []string {
	out := make([]string, 0, len(blobs))
	for _, b := range blobs {
		out = append(out, b.SHA256)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// ViewOf lays a run's rebuilt record, events and blobs (sorted by digest, each once) end to
// end: the base its next run is written as a delta on.
func ViewOf(record, events []byte, blobs []store.Blob) []byte {
	n := len(record) + len(events)
	for _, b := range blobs {
		n += len(b.Data)
	}
	v := make([]byte, 0, n)
	v = append(v, record...)
	v = append(v, events...)
	sorted := slices.Clone(blobs)
	slices.SortFunc(sorted, func(a, b store.Blob) int {
		switch {
		case a.SHA256 < b.SHA256:
			return -1
		case a.SHA256 > b.SHA256:
			return 1
		}
		return 0
	})
	for i, b := range sorted {
		if i > 0 && b.SHA256 == sorted[i-1].SHA256 {
			continue
		}
		v = append(v, b.Data...)
	}
	return v
}

// view rebuilds the view of run ref, every form in it shallower than below.
func (r *Reader) view(ref Ref, below int) ([]byte, error) {
	if b := r.cache.Get(ref); b != nil && b.Depth < below {
		return b.View, nil
	}
	row, ok, err := r.src.Run(ref)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, formErr("run %q version %d, the base of a delta, is missing", ref.ID, ref.Version)
	}
	depth, _, err := r.decodeRun(ref, row, below, true)
	if err != nil {
		return nil, err
	}
	v := ViewOf(row.Record, row.Events, row.Blobs)
	r.cache.Put(&Base{Ref: ref, View: v, Depth: depth})
	return v, nil
}

// decodeRun rebuilds the record and events of row (run self) and, when withBlobs is set, its
// blobs, in place, refusing a delta form of depth below or deeper. It returns the deepest form
// it met.
func (r *Reader) decodeRun(self Ref, row *StoredRun, below int, withBlobs bool) (deepest int, prev []byte, err error) {
	// Chunk forms first, in one batch of fetches.
	var forms []*[]byte
	for _, v := range []*[]byte{&row.Record, &row.Events} {
		if IsForm(*v) && !IsDelta(*v) {
			forms = append(forms, v)
		}
	}
	if withBlobs {
		for i := range row.Blobs {
			b := &row.Blobs[i]
			if BlobIsForm(b.SHA256, b.Data) && !IsDelta(b.Data) {
				forms = append(forms, &b.Data)
			}
		}
	}
	if err := r.chunkForms(forms); err != nil {
		return 0, nil, err
	}
	var prevRef Ref // prev is the view of the run before self, built once
	digests := DigestsOf(row.Blobs)
	base := func(h *deltaHeader) ([]byte, error) {
		if h.depth >= below {
			return nil, formErr("a delta of depth %d where less than %d is allowed", h.depth, below)
		}
		// A run's depth is its record's: the length of the chain of runs its own forms
		// are read through. (A blob it lists that another run wrote is read through that
		// run's chain, whatever its length.)
		deepest = max(deepest, h.depth)
		if prev == nil || prevRef != h.ref {
			v, err := r.view(h.ref, h.depth)
			if err != nil {
				return nil, err
			}
			prev, prevRef = v, h.ref
		}
		return prev, nil
	}
	recDepth := 0
	var recHeader *deltaHeader
	if IsDelta(row.Record) {
		h, err := parseDeltaHeader(row.Record)
		if err != nil {
			return 0, nil, err
		}
		if h.kind != kindRecord {
			return 0, nil, formErr("record of run %q: a delta form of kind %q", self.ID, h.kind)
		}
		b, err := base(h)
		if err != nil {
			return 0, nil, err
		}
		if row.Record, err = r.in.rebuild(h, b, digests); err != nil {
			return 0, nil, err
		}
		recDepth, recHeader = h.depth, h
	}
	if IsDelta(row.Events) {
		h, err := parseDeltaHeader(row.Events)
		if err != nil {
			return 0, nil, err
		}
		if h.kind != kindEvents || h.depth != recDepth {
			return 0, nil, formErr("events of run %q: a delta form that does not go with its record", self.ID)
		}
		b, err := base(h)
		if err != nil {
			return 0, nil, err
		}
		if row.Events, err = r.in.rebuild(h, concat(b, row.Record), digests); err != nil {
			return 0, nil, err
		}
	}
	if !withBlobs {
		return deepest, prev, nil
	}
	var own []byte // the base of the blobs self wrote
	for i := range row.Blobs {
		bl := &row.Blobs[i]
		if !IsDelta(bl.Data) || !BlobIsForm(bl.SHA256, bl.Data) {
			continue
		}
		h, err := parseDeltaHeader(bl.Data)
		if err != nil {
			return 0, nil, err
		}
		if h.kind != kindBlob {
			return 0, nil, formErr("blob %s: a delta form of kind %q", bl.SHA256, h.kind)
		}
		var b []byte
		ds := digests
		if h.ref == self && recHeader != nil && h.depth == recDepth {
			if own == nil {
				pv, err := base(recHeader)
				if err != nil {
					return 0, nil, err
				}
				own = concat(pv, row.Record, row.Events)
			}
			b = own
		} else if b, ds, err = r.writerBase(h.ref, h.depth); err != nil {
			// A blob another run wrote first (in this conversation or another): it is
			// read through its writer's own chain, whatever its depth.
			return 0, nil, err
		}
		if bl.Data, err = r.in.rebuild(h, b, ds); err != nil {
			return 0, nil, err
		}
	}
	return deepest, prev, nil
}

// writerBase returns the base of a blob form of the given depth written by run w: the view of
// the run before w, then w's record and events; and w's blob digests.
func (r *Reader) writerBase(w Ref, depth int) ([]byte, []string, error) {
	// Honest rows never loop (a blob's writer came before every run that lists it again),
	// and every chain is at most MaxDepth long; these guards are for damaged or hostile
	// ones.
	if r.active[w] {
		return nil, nil, formErr("run %q version %d: blobs whose writers refer back to it", w.ID, w.Version)
	}
	if r.writers++; r.writers > maxWriters {
		return nil, nil, formErr("more than %d runs' blobs to follow for one read", maxWriters)
	}
	if r.active == nil {
		r.active = map[Ref]bool{}
	}
	r.active[w] = true
	defer delete(r.active, w)
	row, ok, err := r.src.Run(w)
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		return nil, nil, formErr("run %q version %d, the writer of a blob, is missing", w.ID, w.Version)
	}
	if !IsDelta(row.Record) {
		return nil, nil, formErr("run %q, the writer of a blob, has no delta record", w.ID)
	}
	h, err := parseDeltaHeader(row.Record)
	if err != nil {
		return nil, nil, err
	}
	if h.depth != depth {
		return nil, nil, formErr("a blob of depth %d names run %q, whose record has depth %d", depth, w.ID, h.depth)
	}
	_, prev, err := r.decodeRun(w, row, depth+1, false)
	if err != nil {
		return nil, nil, err
	}
	return concat(prev, row.Record, row.Events), DigestsOf(row.Blobs), nil
}

// chunkForms rebuilds forms of layout version 1 from the chunk rows.
func (r *Reader) chunkForms(forms []*[]byte) error {
	return Rebuild(forms, r.src.Chunks)
}

func concat(parts ...[]byte) []byte {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	out := make([]byte, 0, n)
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}
