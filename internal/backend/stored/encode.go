// This file holds the writing side: what a backend's PutRun writes for a run, computed in
// one place so both backends (and the measurement of what they keep) write the same bytes.

package stored

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"

	"github.com/agentfootprint/agentfootprint-go/store"
)

// Holder is what the encoder asks the store it writes to.
type Holder interface {
	// Held returns which of keys the store already holds as chunk rows.
	Held(keys []Key) (map[Key]bool, error)
	// Dict returns the dictionary chunk recorded for the runs of agentID (its key and
	// bytes), or ok false when there is none yet.
	Dict(agentID string) (key Key, dict []byte, ok bool, err error)
	// Previous returns what the store keeps of the run written last before this one in
	// the same conversation (see PreviousKey): its record and events columns and the data
	// of its blob rows that are forms. Nil when there is none.
	Previous(run *store.Run) ([][]byte, error)
	// Base returns the run to write run as a delta on (nil: none; see FindBase) and the
	// version run's row will have once written (0 for a new row, one more than the row's
	// version when it replaces one).
	Base(run *store.Run) (base *Base, version uint64, err error)
}

// PreviousKey names the run a backend remembers as the last one written for run's
// conversation: its session when it has one, else its agent. A backend keeps the id of the
// last run written under this name, for Holder.Previous.
func PreviousKey(run *store.Run) string {
	if run.SessionID != "" {
		return "last:session:" + run.SessionID
	}
	return "last:agent:" + run.AgentID
}

// Run is what a backend writes for one run, besides the header columns it copies as they
// are.
type Run struct {
	// Record is the record column: the record JSON or its form.
	Record []byte
	// Events is the events column: nil when the run kept no events.
	Events []byte
	// Blobs holds, for each of the run's blobs in order, the data of its blob row: the
	// blob's bytes or their form (never nil).
	Blobs [][]byte
	// Chunks are the chunk rows to insert: the chunks the forms refer to that the store
	// did not hold, each once, and the new dictionary chunk if NewDict is set.
	Chunks []Chunk
	// NewDict is set when this run made the dictionary chunk of its agent: the backend
	// records its key for the agent (keeping an earlier one if another writer was first).
	NewDict *Key
	// BlobList is the run row's list of its blobs (see BlobList), written instead of link
	// rows; nil in Whole mode, where the links are written as schema 1 did.
	BlobList []byte
	// Version is the version the run row is written at (see Holder.Base): a backend that
	// finds the row at another version when it writes must encode the run again.
	Version uint64
	// Written is the run as a base for the run after it (its view and depth), for a
	// backend's ViewCache once the write commits; nil in modes other than Compact.
	Written *Base
}

// minDictBody is the shortest form body compressed against the dictionary; a body shorter
// than dictTail is compressed against the dictionary's last dictTail bytes.
const (
	minDictBody = 128
	dictTail    = 4 << 10
)

// piece is one cut of a value: a chunk candidate, or a short piece kept literal.
type piece struct {
	b     []byte
	key   Key
	keyed bool
}

// Encoder keeps the DEFLATE writers of the runs it encodes (about a megabyte each), so a
// backend that keeps a few encoders (one per concurrent writer) does not make new ones for
// every run. It is not safe for concurrent use.
type Encoder struct {
	z deflater
	// d is the delta encoder of the last run written as a delta: its index (half a
	// megabyte) and base buffer are reused by the next.
	d deltaEncoder
}

// EncodeRun returns what to write for run (already validated) in mode m, asking h which
// chunks and which dictionary the store holds, with a new Encoder.
func EncodeRun(run *store.Run, m Mode, h Holder) (*Run, error) {
	return new(Encoder).EncodeRun(run, m, h)
}

// EncodeRun returns what to write for run (already validated) in mode m, asking h which
// chunks and which dictionary the store holds.
func (e *Encoder) EncodeRun(run *store.Run, m Mode, h Holder) (*Run, error) {
	values := [][]byte{run.Record}
	if len(run.Events) > 0 {
		values = append(values, run.Events)
	}
	for _, b := range run.Blobs {
		values = append(values, b.Data)
	}
	out := make([][]byte, len(values))
	r := &Run{}
	base, version, err := h.Base(run)
	if err != nil {
		return nil, err
	}
	r.Version = version
	if m != Compact || base != nil && (base.ID == run.ID || base.Depth >= MaxDepth || len(base.View) > maxBase) {
		base = nil
	}
	if m == Whole {
		copy(out, values)
	} else if base != nil {
		r.Written = &Base{Ref: Ref{ID: run.ID, Version: r.Version}, Depth: base.Depth + 1, View: ViewOf(run.Record, run.Events, run.Blobs)}
		e.deltaValues(run, base, r.Written.Ref, out)
		digests := make([]string, len(run.Blobs))
		for i, b := range run.Blobs {
			digests[i] = b.SHA256
		}
		var err error
		if r.BlobList, err = BlobList(digests); err != nil {
			return nil, err
		}
	} else {
		var err error
		if r.Chunks, r.NewDict, err = encodeValues(values, out, run, m, h, &e.z); err != nil {
			return nil, err
		}
		digests := make([]string, len(run.Blobs))
		for i, b := range run.Blobs {
			digests[i] = b.SHA256
		}
		if r.BlobList, err = BlobList(digests); err != nil {
			return nil, err
		}
		if m == Compact {
			r.Written = &Base{Ref: Ref{ID: run.ID, Version: r.Version}, View: ViewOf(run.Record, run.Events, run.Blobs)}
		}
	}
	r.Record = out[0]
	out = out[1:]
	if len(run.Events) > 0 {
		r.Events, out = out[0], out[1:]
	}
	r.Blobs = out
	for i := range r.Blobs {
		if r.Blobs[i] == nil {
			r.Blobs[i] = []byte{}
		}
	}
	return r, nil
}

// deltaValues writes into out the forms of run's record, events and blobs (in the order
// EncodeRun lists them) as deltas on base: the record on base's view, the events on that and
// the record, each blob on those and the events. A value whose delta would not be smaller stays
// as it is.
func (e *Encoder) deltaValues(run *store.Run, base *Base, self Ref, out [][]byte) {
	depth := base.Depth + 1
	enc := &e.d
	enc.reset(base.View, DigestsOf(run.Blobs))
	i := 0
	put := func(v []byte, kind byte, ref Ref) {
		if f := e.z.deltaForm(v, enc, kind, ref, depth, kind == kindRecord); f != nil {
			out[i] = f
		} else {
			out[i] = v
		}
		i++
	}
	put(run.Record, kindRecord, base.Ref)
	enc.extend(run.Record)
	if len(run.Events) > 0 {
		put(run.Events, kindEvents, base.Ref)
		enc.extend(run.Events)
	}
	for _, b := range run.Blobs {
		put(b.Data, kindBlob, self)
	}
}

// encodeValues writes the stored form of each of values into out and returns the chunk rows
// to insert, and the key of the dictionary chunk this run made (nil when it made none).
func encodeValues(values, out [][]byte, run *store.Run, m Mode, h Holder, z *deflater) ([]Chunk, *Key, error) {
	cuts := make([][]piece, len(values))
	count := map[Key]int{}
	var keys []Key
	for i, v := range values {
		if len(v) < minChunk || len(v) > MaxValue {
			cuts[i] = []piece{{b: v}}
			continue
		}
		for rest := v; len(rest) > 0; {
			n := cut(rest)
			p := piece{b: rest[:n]}
			rest = rest[n:]
			if n >= minChunk {
				p.key, p.keyed = sha256.Sum256(p.b), true
				if count[p.key] == 0 {
					keys = append(keys, p.key)
				}
				count[p.key]++
			}
			cuts[i] = append(cuts[i], p)
		}
	}
	held := map[Key]bool{}
	if len(keys) > 0 {
		var err error
		if held, err = h.Held(keys); err != nil {
			return nil, nil, err
		}
	}
	var dict []byte
	var dictKey Key
	var newDict []byte
	k, d, haveDict, err := h.Dict(run.AgentID)
	var fe *FormError
	if errors.As(err, &fe) {
		// A damaged dictionary row must not cost the run: it is written without it (and
		// makes a new dictionary, which its forms refer to by key).
		k, d, haveDict, err = Key{}, nil, false, nil
	}
	if err != nil {
		return nil, nil, err
	}
	// A chunk the previous run of the conversation kept as literal bytes is repeated here:
	// from now on it is a chunk row, so the runs after this one refer to it.
	seen, err := previousLiterals(run, h, k, d, haveDict)
	if err != nil {
		return nil, nil, err
	}
	shared := func(p piece) bool { return p.keyed && (count[p.key] > 1 || held[p.key] || seen[p.key]) }

	var rows []Chunk
	if m == Compact {
		if haveDict {
			dict, dictKey = d, k
		} else {
			// The first run of the agent under this encoding: its literal bytes become the
			// dictionary of the runs after it.
			for _, c := range cuts {
				for _, p := range c {
					if len(newDict) >= maxDict {
						break
					}
					if !shared(p) {
						newDict = append(newDict, p.b[:min(len(p.b), maxDict-len(newDict))]...)
					}
				}
			}
			if len(newDict) > 0 {
				dict, dictKey = newDict, sha256.Sum256(newDict)
			}
		}
	}
	written := map[Key]bool{}
	usedDict := false
	// First the segments of every value, with runs of chunk references grouped into
	// nodes; then which nodes the store holds; then the forms.
	segsOf := make([][]segment, len(cuts))
	nodes := map[Key][]byte{}
	var nodeKeys []Key
	for i, c := range cuts {
		var segs, run []segment
		for _, p := range c {
			if !shared(p) {
				segs = append(segs, groupRefs(run, nodes, &nodeKeys)...)
				run = nil
				segs = append(segs, segment{literal: p.b, n: len(p.b)})
				continue
			}
			run = append(run, segment{key: p.key, n: len(p.b), isChunk: true})
			if !held[p.key] && !written[p.key] {
				written[p.key] = true
				rows = append(rows, Chunk{Key: p.key, Data: packChunk(p.b, m, z)})
			}
		}
		segsOf[i] = append(segs, groupRefs(run, nodes, &nodeKeys)...)
	}
	if len(nodeKeys) > 0 {
		heldNodes, err := h.Held(nodeKeys)
		if err != nil {
			return nil, nil, err
		}
		for _, k := range nodeKeys {
			if !heldNodes[k] {
				rows = append(rows, Chunk{Key: k, Data: append([]byte{chunkRaw}, nodes[k]...)})
			}
		}
	}
	for i, segs := range segsOf {
		size := 16
		for _, sg := range segs {
			size += 48 + len(sg.literal)
		}
		body := make([]byte, 0, size)
		body = binary.AppendUvarint(body, uint64(len(values[i])))
		refs := false
		for _, sg := range segs {
			switch {
			case sg.isNode:
				refs = true
				body = append(body, tagNode)
				body = append(body, sg.key[:]...)
				body = binary.AppendUvarint(body, uint64(sg.n))
			case sg.isChunk:
				refs = true
				body = append(body, tagChunk)
				body = append(body, sg.key[:]...)
				body = binary.AppendUvarint(body, uint64(sg.n))
			default:
				body = append(body, tagLiteral)
				body = binary.AppendUvarint(body, uint64(sg.n))
				body = append(body, sg.literal...)
			}
		}
		var head []byte
		head = append(head, marker...)
		head = append(head, version)
		flags := byte(0)
		if m == Compact {
			// Loading a dictionary costs about as much as compressing as many bytes, so a
			// short form is compressed against the dictionary's last dictTail bytes only,
			// and a very short one without it.
			d, tail := dict, false
			switch {
			case len(body) < minDictBody:
				d = nil
			case len(body) < dictTail && len(d) > dictTail:
				d, tail = d[len(d)-dictTail:], true
			}
			zb := z.deflate(body, d, dictID{key: dictKey, tail: tail})
			if len(zb) < len(body) {
				body, flags = zb, flagDeflate
				if d != nil {
					flags |= flagDict
				}
				if tail {
					flags |= flagDictTail
				}
			}
		}
		head = append(head, flags)
		if flags&flagDict != 0 {
			head = append(head, dictKey[:]...)
		}
		form := append(head, body...)
		if !refs && len(form) >= len(values[i]) || len(values[i]) > MaxValue {
			out[i] = values[i]
			continue
		}
		out[i] = form
		usedDict = usedDict || flags&flagDict != 0
	}
	if newDict != nil && usedDict {
		rows = append(rows, Chunk{Key: dictKey, Data: packChunk(newDict, m, z)})
		return rows, &dictKey, nil
	}
	return rows, nil, nil
}

// previousLiterals returns the keys of the literal pieces of the previous run of run's
// conversation (those at least minChunk long, as only those may become chunks). A form
// compressed against another dictionary than the agent's is passed over.
func previousLiterals(run *store.Run, h Holder, dictKey Key, dict []byte, haveDict bool) (map[Key]bool, error) {
	prev, err := h.Previous(run)
	if err != nil || len(prev) == 0 {
		return nil, err
	}
	seen := map[Key]bool{}
	for _, v := range prev {
		if !IsForm(v) {
			continue
		}
		k, withDict, err := DictKey(v)
		if err != nil {
			continue
		}
		var d []byte
		if withDict {
			if !haveDict || k != dictKey {
				continue
			}
			d = dict
		}
		f, err := Parse(v, d)
		if err != nil {
			continue
		}
		for _, s := range f.segs {
			if !s.isChunk && len(s.literal) >= minChunk {
				seen[sha256.Sum256(s.literal)] = true
			}
		}
	}
	return seen, nil
}

// groupRefs turns a run of consecutive chunk references into node references where it can:
// a node ends after a reference whose key's first byte is a multiple of nodeEvery (a cut
// that depends only on the keys, so the same run of references is grouped the same way in
// every form, and a history that grows at its end keeps its earlier nodes). The references
// after the last such cut stay as they are. New nodes are added to nodes (by key, with
// their content) and their keys to order.
func groupRefs(refs []segment, nodes map[Key][]byte, order *[]Key) []segment {
	var out []segment
	start := 0
	for i, r := range refs {
		if r.key[0]%nodeEvery != 0 || i+1-start < 2 {
			continue
		}
		group := refs[start : i+1]
		var content []byte
		total := 0
		for _, g := range group {
			content = append(content, g.key[:]...)
			content = binary.AppendUvarint(content, uint64(g.n))
			total += g.n
		}
		k := Key(sha256.Sum256(content))
		if _, ok := nodes[k]; !ok {
			nodes[k] = content
			*order = append(*order, k)
		}
		out = append(out, segment{key: k, n: total, isNode: true})
		start = i + 1
	}
	return append(out, refs[start:]...)
}
