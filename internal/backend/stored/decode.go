// This file holds the reading side: parsing a form (with its caps) and rebuilding the values
// of one read from the chunk rows they refer to.

package stored

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
)

// segment is one parsed segment of a form: literal bytes, or a chunk's key and length.
type segment struct {
	literal []byte
	key     Key
	n       int
	isChunk bool
	isNode  bool
}

// Form is a parsed form: what it rebuilds, segment by segment.
type Form struct {
	total int
	segs  []segment
}

// header splits a form into its flags, dictionary key (when flagDict is set) and body.
func header(form []byte) (flags byte, dict Key, body []byte, err error) {
	if !IsForm(form) {
		return 0, dict, nil, formErr("no form marker")
	}
	rest := form[len(marker):]
	if len(rest) < 2 {
		return 0, dict, nil, formErr("truncated header")
	}
	if rest[0] != version {
		return 0, dict, nil, formErr("layout version %d, this library reads %d (written by a newer version?)", rest[0], version)
	}
	flags, rest = rest[1], rest[2:]
	if flags&^(flagDeflate|flagDict|flagDictTail) != 0 || flags&flagDict != 0 && flags&flagDeflate == 0 ||
		flags&flagDictTail != 0 && flags&flagDict == 0 {
		return 0, dict, nil, formErr("unknown flags %#x", flags)
	}
	if flags&flagDict != 0 {
		if len(rest) < len(dict) {
			return 0, dict, nil, formErr("truncated dictionary key")
		}
		copy(dict[:], rest)
		rest = rest[len(dict):]
	}
	return flags, dict, rest, nil
}

// DictKey returns the key of the dictionary chunk form was compressed against; ok is false
// when it was not.
func DictKey(form []byte) (key Key, ok bool, err error) {
	flags, k, _, err := header(form)
	if err != nil {
		return Key{}, false, err
	}
	return k, flags&flagDict != 0, nil
}

// Parse reads a stored form (see IsForm), with the bytes of its dictionary chunk when it
// has one (see DictKey). It refuses a form of another layout version, a damaged one, and one
// that would rebuild more than MaxValue bytes, with a *FormError.
func Parse(form, dict []byte) (*Form, error) { return new(inflater).parse(form, dict) }

func (in *inflater) parse(form, dict []byte) (*Form, error) {
	flags, _, body, err := header(form)
	if err != nil {
		return nil, err
	}
	if flags&flagDict != 0 && dict == nil {
		return nil, formErr("compressed against a dictionary that was not given")
	}
	if flags&flagDeflate != 0 {
		if flags&flagDict == 0 {
			dict = nil
		}
		if flags&flagDictTail != 0 && len(dict) > dictTail {
			dict = dict[len(dict)-dictTail:]
		}
		if body, err = in.inflate(body, dict, MaxValue); err != nil {
			return nil, formErr("segments: %v", err)
		}
	}
	total, k := binary.Uvarint(body)
	if k <= 0 || total > MaxValue {
		return nil, formErr("bad or oversized length")
	}
	body = body[k:]
	f := &Form{total: int(total)}
	sum := uint64(0)
	for len(body) > 0 {
		tag := body[0]
		body = body[1:]
		var s segment
		switch tag {
		case tagLiteral:
			n, k := binary.Uvarint(body)
			if k <= 0 || n > uint64(len(body)-k) {
				return nil, formErr("literal segment %d: bad length", len(f.segs))
			}
			s.literal = body[k : k+int(n)]
			s.n = int(n)
			body = body[k+int(n):]
		case tagChunk:
			if len(body) < len(s.key) {
				return nil, formErr("chunk segment %d: truncated key", len(f.segs))
			}
			copy(s.key[:], body)
			body = body[len(s.key):]
			n, k := binary.Uvarint(body)
			if k <= 0 || n == 0 || n > maxChunk {
				return nil, formErr("chunk segment %d: bad length", len(f.segs))
			}
			s.n, s.isChunk = int(n), true
			body = body[k:]
		case tagNode:
			if len(body) < len(s.key) {
				return nil, formErr("node segment %d: truncated key", len(f.segs))
			}
			copy(s.key[:], body)
			body = body[len(s.key):]
			n, k := binary.Uvarint(body)
			if k <= 0 || n == 0 || n > MaxValue {
				return nil, formErr("node segment %d: bad length", len(f.segs))
			}
			s.n, s.isNode = int(n), true
			body = body[k:]
		default:
			return nil, formErr("segment %d: unknown tag %#x", len(f.segs), tag)
		}
		sum += uint64(s.n)
		if sum > total {
			return nil, formErr("segments longer than the declared %d bytes", total)
		}
		f.segs = append(f.segs, s)
	}
	if sum != total {
		return nil, formErr("segments hold %d bytes, the form declares %d", sum, total)
	}
	return f, nil
}

// Keys returns the keys of the chunks and nodes the form refers to, each once, in first-use
// order.
func (f *Form) Keys() []Key {
	seen := map[Key]bool{}
	var keys []Key
	for _, s := range f.segs {
		if (s.isChunk || s.isNode) && !seen[s.key] {
			seen[s.key] = true
			keys = append(keys, s.key)
		}
	}
	return keys
}

// Build rebuilds the bytes of the form from the row data of its chunks and nodes (by key).
// It checks every chunk against its key and length.
func (f *Form) Build(chunks map[Key][]byte) ([]byte, error) { return f.build(chunks, new(inflater)) }

func (f *Form) build(chunks map[Key][]byte, in *inflater) ([]byte, error) {
	segs, err := f.expand(chunks)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, f.total)
	for i, s := range segs {
		if !s.isChunk {
			out = append(out, s.literal...)
			continue
		}
		data, ok := chunks[s.key]
		if !ok {
			return nil, formErr("segment %d: chunk %x is missing", i, s.key)
		}
		b, err := in.unpack(data, s.n)
		if err != nil {
			return nil, formErr("segment %d: chunk %x: %v", i, s.key, err)
		}
		if Key(sha256.Sum256(b)) != s.key {
			return nil, formErr("segment %d: chunk %x does not match its key", i, s.key)
		}
		out = append(out, b...)
	}
	return out, nil
}

// expand returns the form's segments with every node replaced by the chunk references it
// holds (from the node rows in chunks).
func (f *Form) expand(chunks map[Key][]byte) ([]segment, error) {
	var out []segment
	for i, s := range f.segs {
		if !s.isNode {
			out = append(out, s)
			continue
		}
		data, ok := chunks[s.key]
		if !ok {
			return nil, formErr("segment %d: node %x is missing", i, s.key)
		}
		refs, err := parseNode(s.key, data, s.n)
		if err != nil {
			return nil, formErr("segment %d: %v", i, err)
		}
		out = append(out, refs...)
	}
	return out, nil
}

// parseNode reads the chunk references of the node row kept under k, which must add up to
// n bytes.
func parseNode(k Key, data []byte, n int) ([]segment, error) {
	if len(data) == 0 || data[0] != chunkRaw {
		return nil, fmt.Errorf("node %x: not a node row", k)
	}
	content := data[1:]
	if Key(sha256.Sum256(content)) != k {
		return nil, fmt.Errorf("node %x does not match its key", k)
	}
	var refs []segment
	sum := 0
	for len(content) > 0 {
		var s segment
		if len(content) < len(s.key) {
			return nil, fmt.Errorf("node %x: truncated key", k)
		}
		copy(s.key[:], content)
		content = content[len(s.key):]
		m, w := binary.Uvarint(content)
		if w <= 0 || m == 0 || m > maxChunk {
			return nil, fmt.Errorf("node %x: bad length", k)
		}
		content = content[w:]
		s.n, s.isChunk = int(m), true
		sum += s.n
		if sum > n {
			return nil, fmt.Errorf("node %x holds more than its %d bytes", k, n)
		}
		refs = append(refs, s)
	}
	if sum != n {
		return nil, fmt.Errorf("node %x holds %d bytes, the form says %d", k, sum, n)
	}
	return refs, nil
}

// UnpackDict returns the bytes of the dictionary chunk kept under k from its row data (nil
// data: the row is missing), checking them against k.
func UnpackDict(k Key, data []byte) ([]byte, error) { return new(inflater).unpackDict(k, data) }

func (in *inflater) unpackDict(k Key, data []byte) ([]byte, error) {
	if data == nil {
		return nil, formErr("dictionary chunk %x is missing", k)
	}
	d, err := in.unpack(data, -1)
	if err != nil || Key(sha256.Sum256(d)) != k {
		return nil, formErr("dictionary chunk %x is damaged", k)
	}
	return d, nil
}

// ParseKey reads a key written as 64 lowercase hex digits.
func ParseKey(s string) (Key, error) {
	var k Key
	if len(s) != 2*len(k) {
		return k, formErr("key %q is not 64 hex digits", s)
	}
	if _, err := hex.Decode(k[:], []byte(s)); err != nil {
		return k, formErr("key %q is not 64 hex digits", s)
	}
	return k, nil
}

// Rebuild replaces each of forms (values a read found to be forms) with the bytes it
// rebuilds. fetch returns the row data of the chunks under the keys it is given (a key it
// leaves out is reported as missing); it is called at most three times: for the
// dictionaries the forms were compressed against, for the chunks and nodes they refer to,
// and for the chunks those nodes refer to.
func Rebuild(forms []*[]byte, fetch func(keys []Key) (map[Key][]byte, error)) error {
	if len(forms) == 0 {
		return nil
	}
	in := new(inflater)
	var dictKeys []Key
	seen := map[Key]bool{}
	for _, v := range forms {
		k, ok, err := DictKey(*v)
		if err != nil {
			return err
		}
		if ok && !seen[k] {
			seen[k] = true
			dictKeys = append(dictKeys, k)
		}
	}
	dicts := map[Key][]byte{}
	if len(dictKeys) > 0 {
		rows, err := fetch(dictKeys)
		if err != nil {
			return err
		}
		for _, k := range dictKeys {
			data, ok := rows[k]
			if !ok {
				return formErr("dictionary chunk %x is missing", k)
			}
			d, err := in.unpackDict(k, data)
			if err != nil {
				return err
			}
			dicts[k] = d
		}
	}
	parsed := make([]*Form, len(forms))
	clear(seen)
	var keys []Key
	for i, v := range forms {
		k, ok, _ := DictKey(*v)
		var d []byte
		if ok {
			d = dicts[k]
		}
		f, err := in.parse(*v, d)
		if err != nil {
			return err
		}
		parsed[i] = f
		for _, k := range f.Keys() {
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	chunks := map[Key][]byte{}
	if len(keys) > 0 {
		var err error
		if chunks, err = fetch(keys); err != nil {
			return err
		}
	}
	// The chunks that nodes refer to, in one more fetch.
	var more []Key
	for _, f := range parsed {
		for i, s := range f.segs {
			if !s.isNode {
				continue
			}
			data, ok := chunks[s.key]
			if !ok {
				return formErr("segment %d: node %x is missing", i, s.key)
			}
			refs, err := parseNode(s.key, data, s.n)
			if err != nil {
				return formErr("segment %d: %v", i, err)
			}
			for _, r := range refs {
				if !seen[r.key] {
					seen[r.key] = true
					more = append(more, r.key)
				}
			}
		}
	}
	if len(more) > 0 {
		rows, err := fetch(more)
		if err != nil {
			return err
		}
		for k, v := range rows {
			chunks[k] = v
		}
	}
	for i, f := range parsed {
		b, err := f.build(chunks, in)
		if err != nil {
			return err
		}
		*forms[i] = b
	}
	return nil
}
