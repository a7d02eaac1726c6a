// This file checks the stored encoding: every value rebuilds byte for byte in every mode,
// across the runs of a conversation sharing chunks, nodes and a dictionary; damaged forms
// and rows are refused with an error, never a panic.

package stored

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/store"
)

// memStore keeps chunk rows, dictionaries and the forms of each conversation's last run, as
// a backend does, for EncodeRun and Rebuild.
type memStore struct {
	chunks map[Key][]byte
	dicts  map[string]Key
	last   map[string][][]byte
	// rows are the run rows by version, lastID the last run of each conversation and
	// versions each run's current version, for delta forms.
	rows     map[Ref]*StoredRun
	lastID   map[string]string
	versions map[string]uint64
	views    ViewCache
	// noBase makes Base find none (every run written as a keyframe).
	noBase bool
	enc    *Encoder
}

func newMemStore() *memStore {
	return &memStore{chunks: map[Key][]byte{}, dicts: map[string]Key{}, last: map[string][][]byte{},
		rows: map[Ref]*StoredRun{}, lastID: map[string]string{}, versions: map[string]uint64{}}
}

func (m *memStore) Base(run *store.Run) (*Base, uint64, error) {
	next := uint64(0)
	if v, ok := m.versions[run.ID]; ok {
		next = v + 1
	}
	id, ok := m.lastID[PreviousKey(run)]
	if !ok || m.noBase || id == run.ID {
		return nil, next, nil
	}
	b, err := FindBase(m, Ref{ID: id, Version: m.versions[id]}, &m.views)
	return b, next, err
}

func (m *memStore) Run(ref Ref) (*StoredRun, bool, error) {
	r, ok := m.rows[ref]
	if !ok {
		return nil, false, nil
	}
	c := &StoredRun{Record: bytes.Clone(r.Record), Events: bytes.Clone(r.Events)}
	for _, b := range r.Blobs {
		c.Blobs = append(c.Blobs, store.Blob{SHA256: b.SHA256, Data: bytes.Clone(b.Data)})
	}
	return c, true, nil
}

func (m *memStore) Chunks(keys []Key) (map[Key][]byte, error) { return m.fetch(keys) }

func (m *memStore) Held(keys []Key) (map[Key]bool, error) {
	out := map[Key]bool{}
	for _, k := range keys {
		if _, ok := m.chunks[k]; ok {
			out[k] = true
		}
	}
	return out, nil
}

func (m *memStore) Dict(agent string) (Key, []byte, bool, error) {
	k, ok := m.dicts[agent]
	if !ok {
		return k, nil, false, nil
	}
	d, err := UnpackDict(k, m.chunks[k])
	return k, d, err == nil, err
}

func (m *memStore) Previous(run *store.Run) ([][]byte, error) { return m.last[PreviousKey(run)], nil }

func (m *memStore) fetch(keys []Key) (map[Key][]byte, error) {
	out := map[Key][]byte{}
	for _, k := range keys {
		if d, ok := m.chunks[k]; ok {
			out[k] = d
		}
	}
	return out, nil
}

// put encodes run as a backend's PutRun does and returns what it wrote.
func (m *memStore) put(t testing.TB, run *store.Run, mode Mode) *Run {
	t.Helper()
	enc := m.enc
	if enc == nil {
		enc = new(Encoder)
	}
	w, err := enc.EncodeRun(run, mode, m)
	if err != nil {
		t.Fatalf("EncodeRun(%s): %v", run.ID, err)
	}
	for _, c := range w.Chunks {
		if _, ok := m.chunks[c.Key]; !ok {
			m.chunks[c.Key] = c.Data
		}
	}
	if w.NewDict != nil {
		if _, ok := m.dicts[run.AgentID]; !ok {
			m.dicts[run.AgentID] = *w.NewDict
		}
	}
	prev := [][]byte{w.Record, w.Events}
	for i, b := range run.Blobs {
		if BlobIsForm(b.SHA256, w.Blobs[i]) {
			prev = append(prev, w.Blobs[i])
		}
	}
	m.last[PreviousKey(run)] = prev
	row := &StoredRun{Record: w.Record, Events: w.Events}
	held := map[string]bool{}
	for _, old := range m.rows {
		for _, b := range old.Blobs {
			held[b.SHA256] = true
		}
	}
	for i, b := range run.Blobs {
		data := w.Blobs[i]
		// A blob row already held stays as it was first written.
		for _, old := range m.rows {
			for _, ob := range old.Blobs {
				if ob.SHA256 == b.SHA256 {
					data = ob.Data
				}
			}
		}
		row.Blobs = append(row.Blobs, store.Blob{SHA256: b.SHA256, Data: data})
	}
	slices.SortFunc(row.Blobs, func(a, b store.Blob) int { return strings.Compare(a.SHA256, b.SHA256) })
	row.Blobs = slices.CompactFunc(row.Blobs, func(a, b store.Blob) bool { return a.SHA256 == b.SHA256 })
	m.rows[Ref{ID: run.ID, Version: w.Version}] = row
	m.versions[run.ID] = w.Version
	m.lastID[PreviousKey(run)] = run.ID
	m.views.Put(w.Written)
	return w
}

// get rebuilds what put wrote for run and fails t unless it is run's bytes.
func (m *memStore) get(t testing.TB, run *store.Run, w *Run) {
	t.Helper()
	record, events := bytes.Clone(w.Record), bytes.Clone(w.Events)
	blobs := make([][]byte, len(w.Blobs))
	var forms []*[]byte
	if IsForm(record) {
		forms = append(forms, &record)
	}
	if IsForm(events) {
		forms = append(forms, &events)
	}
	for i, b := range w.Blobs {
		blobs[i] = bytes.Clone(b)
		if BlobIsForm(run.Blobs[i].SHA256, b) {
			forms = append(forms, &blobs[i])
		}
	}
	deltas := false
	for _, f := range forms {
		deltas = deltas || IsDelta(*f)
	}
	if deltas {
		record, events = bytes.Clone(run.Record), bytes.Clone(run.Events)
		for i := range blobs {
			blobs[i] = run.Blobs[i].Data
		}
	} else if err := Rebuild(forms, m.fetch); err != nil {
		t.Fatalf("Rebuild(%s): %v", run.ID, err)
	}
	// The same through the Reader, as a backend's GetRun reads it.
	row, ok, _ := m.Run(Ref{ID: run.ID, Version: w.Version})
	if !ok {
		t.Fatalf("run %s: no row", run.ID)
	}
	if err := NewReader(m, nil).Run(Ref{ID: run.ID, Version: w.Version}, row); err != nil {
		t.Fatalf("Reader.Run(%s): %v", run.ID, err)
	}
	if !bytes.Equal(row.Record, run.Record) || !bytes.Equal(row.Events, run.Events) {
		t.Fatalf("run %s: the Reader does not rebuild the record or events", run.ID)
	}
	for _, b := range row.Blobs {
		if store.Digest(b.Data) != b.SHA256 {
			t.Fatalf("run %s: the Reader does not rebuild blob %s", run.ID, b.SHA256)
		}
	}
	if !bytes.Equal(record, run.Record) {
		t.Fatalf("run %s: record does not rebuild (%d bytes, want %d)", run.ID, len(record), len(run.Record))
	}
	if !bytes.Equal(events, run.Events) {
		t.Fatalf("run %s: events do not rebuild", run.ID)
	}
	for i := range blobs {
		if !bytes.Equal(blobs[i], run.Blobs[i].Data) {
			t.Fatalf("run %s: blob %d does not rebuild", run.ID, i)
		}
	}
}

// conversation returns runs whose records repeat a growing history, with JSON messages,
// random text, a blob starting with the form marker, and an empty blob.
func conversation(turns int) []*store.Run {
	r := rand.New(rand.NewPCG(1, 2))
	var history []string
	var runs []*store.Run
	for n := 1; n <= turns; n++ {
		text := make([]byte, 1500+r.IntN(1500))
		for i := range text {
			text[i] = "abcdefghij klmnop\n"[r.IntN(18)]
		}
		history = append(history, fmt.Sprintf(`{"role":"user","content":"question %d"}`, n), fmt.Sprintf(`{"role":"tool","content":%q}`, text))
		h := strings.Join(history, ",")
		run := &store.Run{
			RunInfo: store.RunInfo{ID: fmt.Sprintf("r%d", n), SessionID: "s", AgentID: "a", StartedAt: time.Unix(int64(n), 0), Status: store.StatusComplete},
			Record:  []byte(fmt.Sprintf(`{"runId":"r%d","history":[%s],"turn":%d}`, n, h, n)),
			Events:  []byte(fmt.Sprintf(`[{"type":"x","meta":{"runId":"r%d"}}]`, n)),
			Blobs: []store.Blob{
				{Data: []byte(`{"messages":[` + h + `]}`)},
				{Data: []byte{}},
				{Data: append(bytes.Clone(marker), 1, 0, 'L', 1, 'x')},
				{Data: bytes.Repeat([]byte{0}, 5000)},
				{Data: []byte(fmt.Sprintf(`{"turn":%d,"text":%q}`, n, text[:min(len(text), 1000+n*200)]))},
			},
		}
		for i := range run.Blobs {
			run.Blobs[i].SHA256 = store.Digest(run.Blobs[i].Data)
		}
		runs = append(runs, run)
	}
	return runs
}

func TestConversationRebuilds(t *testing.T) {
	for _, mode := range []Mode{Whole, Shared, Compact} {
		t.Run(fmt.Sprint(mode), func(t *testing.T) {
			m := newMemStore()
			runs := conversation(12)
			var written []*Run
			for _, run := range runs {
				written = append(written, m.put(t, run, mode))
			}
			for i, run := range runs {
				m.get(t, run, written[i])
			}
			last := written[len(written)-1]
			switch {
			case mode == Whole && len(m.chunks) != 0:
				t.Errorf("Whole wrote %d chunks", len(m.chunks))
			case mode != Whole && (!IsForm(last.Record) || len(last.Record)*4 > len(runs[len(runs)-1].Record)):
				t.Errorf("the last record is kept in %d bytes for %d; want a form under a quarter", len(last.Record), len(runs[len(runs)-1].Record))
			}
		})
	}
}

func TestRandomValuesRebuild(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	m := newMemStore()
	for i := range 40 {
		data := make([]byte, r.IntN(40000))
		for j := range data {
			data[j] = byte(r.IntN(4 + i))
		}
		run := &store.Run{RunInfo: store.RunInfo{ID: fmt.Sprint(i), AgentID: "a"}, Record: data, Blobs: []store.Blob{{SHA256: store.Digest(data), Data: data}}}
		m.get(t, run, m.put(t, run, Compact))
	}
}

func TestBlobIsForm(t *testing.T) {
	raw := append(bytes.Clone(marker), "anything"...)
	if BlobIsForm(store.Digest(raw), raw) {
		t.Error("a blob whose own bytes start with the marker was taken for a form")
	}
	if !BlobIsForm(store.Digest([]byte("other")), raw) {
		t.Error("a marked row that does not hash to its key was not taken for a form")
	}
	if BlobIsForm(store.Digest([]byte("x")), []byte("{}")) {
		t.Error("an unmarked row was taken for a form")
	}
}

func TestDamagedFormsAreRefused(t *testing.T) {
	m := newMemStore()
	run := conversation(3)[2]
	w := m.put(t, run, Compact)
	f := w.Record
	var fe *FormError
	cases := map[string][]byte{
		"no marker":     []byte("{}"),
		"truncated":     f[:5],
		"newer version": append(append(bytes.Clone(marker), 9), f[len(marker)+1:]...),
		"unknown flags": append(append(bytes.Clone(marker), version, 0x80), f[len(marker)+2:]...),
		"cut short":     f[:len(f)-3],
	}
	for name, form := range cases {
		v := bytes.Clone(form)
		if err := Rebuild([]*[]byte{&v}, m.fetch); !errors.As(err, &fe) {
			t.Errorf("%s: Rebuild = %v, want a *FormError", name, err)
		}
	}
	// A chunk row that went missing or was damaged is reported, not rebuilt wrongly.
	for k, data := range m.chunks {
		if k == m.dicts["a"] {
			continue
		}
		damaged := bytes.Clone(data)
		damaged[len(damaged)-1] ^= 0xff
		m.chunks[k] = damaged
		v := bytes.Clone(w.Record)
		err := Rebuild([]*[]byte{&v}, m.fetch)
		delete(m.chunks, k)
		v2 := bytes.Clone(w.Record)
		err2 := Rebuild([]*[]byte{&v2}, m.fetch)
		m.chunks[k] = data
		if err == nil && !bytes.Equal(v, run.Record) || err2 == nil && !bytes.Equal(v2, run.Record) {
			t.Fatalf("chunk %x damaged or missing: the record rebuilt to other bytes without an error", k)
		}
	}
}

// FuzzRebuild feeds arbitrary bytes as a form, its dictionary and chunk rows: Rebuild must
// return an error or bytes of the declared length, never panic or run past its caps.
func FuzzRebuild(f *testing.F) {
	m := newMemStore()
	for _, run := range conversation(3) {
		w := m.put(f, run, Compact)
		var first []byte
		for _, d := range m.chunks {
			first = d
			break
		}
		f.Add(w.Record, first, first)
		f.Add(w.Blobs[0], first, []byte{chunkDeflate, 1, 2, 3})
	}
	f.Add(append(bytes.Clone(marker), version, 0, 5, tagLiteral, 5, 'h', 'e', 'l', 'l', 'o'), []byte{}, []byte{})
	f.Fuzz(func(t *testing.T, form, a, b []byte) {
		fetch := func(keys []Key) (map[Key][]byte, error) {
			out := map[Key][]byte{}
			for i, k := range keys {
				if i%2 == 0 {
					out[k] = a
				} else {
					out[k] = b
				}
			}
			return out, nil
		}
		v := bytes.Clone(form)
		if err := Rebuild([]*[]byte{&v}, fetch); err != nil {
			return
		}
		if len(v) > MaxValue {
			t.Fatalf("rebuilt %d bytes, over the cap", len(v))
		}
	})
}

// FuzzEncode stores arbitrary values as two runs of one conversation and checks they
// rebuild byte for byte. The agent's dictionary is made once, from a seed run, so that each
// input costs a write, not a new dictionary (and CI's short runs explore many inputs).
func FuzzEncode(f *testing.F) {
	f.Add([]byte(`{"role":"user","content":"hi"}`), []byte("x"))
	f.Add(bytes.Repeat([]byte(`{"role":"tool","content":"abc"},`), 200), bytes.Repeat([]byte{7}, 3000))
	f.Add([]byte("x"), bytes.Repeat([]byte(`{"role":"tool","content":"abc"},`), 200)) // a record no delta makes smaller
	base := newMemStore()
	base.put(f, conversation(1)[0], Compact)
	enc := new(Encoder)
	f.Fuzz(func(t *testing.T, record, blob []byte) {
		m := newMemStore()
		for k, v := range base.chunks {
			m.chunks[k] = v
		}
		m.dicts["a"] = base.dicts["a"]
		for i := range 2 {
			run := &store.Run{RunInfo: store.RunInfo{ID: fmt.Sprint(i), SessionID: "s", AgentID: "a"}, Record: record, Blobs: []store.Blob{{SHA256: store.Digest(blob), Data: blob}}}
			m.enc = enc
			w := m.put(t, run, Compact)
			m.get(t, run, w)
			record = append(bytes.Clone(record), blob...)
			blob = append(bytes.Clone(blob), record...) // a new blob, written as a delta
		}
	})
}

func TestDamagedDictionaryDoesNotCostTheRun(t *testing.T) {
	m := newMemStore()
	m.noBase = true
	runs := conversation(3)
	m.put(t, runs[0], Compact)
	k := m.dicts["a"]
	good := m.chunks[k]
	m.chunks[k] = []byte{chunkRaw, 'x'} // no longer hashes to its key
	w := m.put(t, runs[1], Compact)
	m.chunks[k] = good
	m.get(t, runs[1], w)
	if got, ok, _ := DictKey(w.Record); ok && got == k {
		t.Error("the run was compressed against the damaged dictionary")
	}
}

func TestBlobList(t *testing.T) {
	a, b := store.Digest([]byte("a")), store.Digest([]byte("b"))
	list, err := BlobList([]string{b, a, b})
	if err != nil || len(list) != 64 {
		t.Fatalf("BlobList = %d bytes, %v", len(list), err)
	}
	got, err := ParseBlobList(list)
	want := []string{min(a, b), max(a, b)}
	if err != nil || len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("ParseBlobList = %v, %v; want %v", got, err, want)
	}
	if empty, err := BlobList(nil); err != nil || empty == nil || len(empty) != 0 {
		t.Errorf("BlobList(nil) = %#v, %v; want an empty, non-nil list", empty, err)
	}
	for _, bad := range [][]byte{list[:40], append(bytes.Clone(list[32:]), list[:32]...), append(bytes.Clone(list[:32]), list[:32]...)} {
		if _, err := ParseBlobList(bad); err == nil {
			t.Errorf("ParseBlobList accepted %x", bad)
		}
	}
}

// FuzzParseBlobList: a blob list parses only when it is whole, sorted keys, and then
// writes back to the same bytes.
func FuzzParseBlobList(f *testing.F) {
	l, _ := BlobList([]string{store.Digest([]byte("a")), store.Digest([]byte("b"))})
	f.Add(l)
	f.Add([]byte{1, 2, 3})
	f.Fuzz(func(t *testing.T, list []byte) {
		ds, err := ParseBlobList(list)
		if err != nil {
			return
		}
		back, err := BlobList(ds)
		if err != nil || !bytes.Equal(back, list) {
			t.Fatalf("%x parses to %v, which writes back as %x (%v)", list, ds, back, err)
		}
	})
}

// FuzzDelta checks the delta both ways: a value encoded on any base rebuilds byte for byte,
// and arbitrary operations on a base are refused or rebuild at most what they declare, never
// a panic.
func FuzzDelta(f *testing.F) {
	f.Add([]byte(`{"history":[{"role":"user","content":"hi"}]}`), []byte(`{"history":[{"role":"user","content":"hi"},{"role":"tool","content":"page"}]}`))
	f.Add(bytes.Repeat([]byte("abc"), 100), []byte{opCopy, 0, 10, opLiteral, 2, 'x', 'y'})
	f.Fuzz(func(t *testing.T, base, v []byte) {
		digests := []string{store.Digest(base), store.Digest(v)}
		slices.Sort(digests)
		if len(v) >= 80 {
			// v names a digest in hex, as a record names its blobs.
			v = append(append(bytes.Clone(v[:8]), digests[0]...), v[8:]...)
		}
		var enc deltaEncoder
		enc.reset(base, digests)
		ops := enc.encode(nil, v)
		got, err := applyDelta(ops, base, digests, len(v))
		if err != nil || !bytes.Equal(got, v) {
			t.Fatalf("delta of %d bytes on %d rebuilds %d bytes, %v", len(v), len(base), len(got), err)
		}
		// v read as operations on base.
		if out, err := applyDelta(v, base, digests, 1<<16); err == nil && len(out) != 1<<16 {
			t.Fatalf("applyDelta returned %d bytes without an error, want %d", len(out), 1<<16)
		}
		form := append(append([]byte(nil), marker...), deltaVersion)
		form = append(form, v...)
		if h, err := parseDeltaHeader(form); err == nil {
			if _, err := new(inflater).rebuild(h, base, digests); err == nil && h.depth == 0 {
				t.Fatal("a delta of depth 0 rebuilt")
			}
		}
	})
}

// TestTinyRecordWithDeltaBlobs writes a turn whose record no delta makes smaller and whose
// new blob is a delta on the turn before: the blob is read through the record's header, so
// the record is a delta form all the same.
func TestTinyRecordWithDeltaBlobs(t *testing.T) {
	m := newMemStore()
	page := bytes.Repeat([]byte(`{"role":"tool","content":"12:00 req=1 /checkout 502"},`), 80)
	first := &store.Run{RunInfo: store.RunInfo{ID: "r1", SessionID: "s", AgentID: "a"}, Record: append([]byte(`{"h":[`), page...),
		Blobs: []store.Blob{{SHA256: store.Digest(page), Data: page}}}
	m.get(t, first, m.put(t, first, Compact))
	next := append(bytes.Clone(page), `{"role":"user","content":"and then?"}`...)
	second := &store.Run{RunInfo: store.RunInfo{ID: "r2", SessionID: "s", AgentID: "a"}, Record: []byte("{}"),
		Blobs: []store.Blob{{SHA256: store.Digest(next), Data: next}}}
	w := m.put(t, second, Compact)
	if !IsDelta(w.Record) || !IsDelta(w.Blobs[0]) {
		t.Fatalf("record delta %v, blob delta %v; want both", IsDelta(w.Record), IsDelta(w.Blobs[0]))
	}
	m.get(t, second, w)
	got, err := NewReader(m, nil).Blob(second.Blobs[0].SHA256, w.Blobs[0])
	if err != nil || !bytes.Equal(got, next) {
		t.Fatalf("Blob = %d bytes, %v; want the %d bytes written", len(got), err, len(next))
	}
}

// TestBlobSharedAcrossConversations: a blob first written deep in one conversation (as a
// delta on that conversation's turns) is listed again by the second turn of another
// conversation; the turns after that one still read back.
func TestBlobSharedAcrossConversations(t *testing.T) {
	m := newMemStore()
	page := func(n int) []byte {
		return bytes.Repeat([]byte(fmt.Sprintf(`{"role":"tool","content":"page %d: 12:00 req=%d /checkout 502"},`, n, n*7)), 40)
	}
	shared := page(99)
	turn := func(session string, n int, blobs ...[]byte) *store.Run {
		var bs []store.Blob
		for _, b := range blobs {
			bs = append(bs, store.Blob{SHA256: store.Digest(b), Data: b})
		}
		rec := append([]byte(fmt.Sprintf(`{"session":%q,"turn":%d,"history":[`, session, n)), page(n)...)
		return &store.Run{RunInfo: store.RunInfo{ID: fmt.Sprintf("%s-%d", session, n), SessionID: session, AgentID: "a"}, Record: rec, Blobs: bs}
	}
	var runs []*store.Run
	var written []*Run
	put := func(r *store.Run) {
		runs = append(runs, r)
		written = append(written, m.put(t, r, Compact))
	}
	for n := range 6 {
		if n == 4 {
			put(turn("A", n, page(n), shared))
		} else {
			put(turn("A", n, page(n)))
		}
	}
	for n := range 4 {
		if n == 1 {
			put(turn("B", n, page(100+n), shared))
		} else {
			put(turn("B", n, page(100+n)))
		}
	}
	m.views = ViewCache{} // nothing in memory: every read goes to the rows
	for i, r := range runs {
		m.get(t, r, written[i])
	}
}
