// Package stored is the encoding the run stores (store/sqlite, store/postgres) write for a
// run's record, events and blobs. What a store reads back is the exact bytes it was given;
// this package only changes how they are kept.
//
// A run that follows another in its conversation is written as a delta on it (layout version
// 2, see deltaform.go): copies from the earlier run's bytes and what is new, so a turn costs
// what it adds. A run with no run before it, or after MaxDepth deltas, is written whole, in
// layout version 1:
//
//   - each value is cut into content-defined chunks (see cut), so the same run of bytes is
//     cut the same way wherever it appears;
//   - a chunk the store already holds, or one that appears more than once in the run, is
//     kept once as a chunk row under the SHA-256 of its bytes and referred to by that key
//     (the turns of a conversation, whose records and first requests repeat the history
//     before them, share what they repeat); every other chunk stays in the value's form as
//     literal bytes;
//   - the form (literals and references) is compressed with DEFLATE, against a dictionary
//     chunk kept once per agent (the literal bytes of the agent's first run stored under
//     this encoding), so the parts every turn repeats in its own words (the chart
//     structure, the shape of every event) cost little.
//
// A stored value is either the original bytes (the layout of store schema 1, and what is
// still written when a form would not be smaller) or a form: a marker, a layout version and
// the segments. A record or events column tells the two apart by the marker (JSON never
// starts with a NUL byte); a blob row, whose bytes may be anything, by its key too (the
// original bytes hash to the key, a form does not).
package stored

import (
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
)

// Mode is how much of the encoding a store applies when it writes.
type Mode uint8

// The modes. Compact is what the stores write; the others exist to measure it against.
const (
	// Whole keeps every value as its original bytes: the layout of store schema 1.
	Whole Mode = iota
	// Shared keeps repeated chunks once, without compressing anything.
	Shared
	// Compact keeps repeated chunks once and compresses forms and chunks.
	Compact
)

// marker opens every form.
var marker = []byte("\x00afs")

// version is the layout of the chunk forms this package writes and reads;
// delta forms have a layout of their own (deltaVersion, deltaform.go).
const version = 1

// The form's flags byte.
const (
	flagDeflate  = 1 << iota // the segments are compressed with DEFLATE (RFC 1951)
	flagDict                 // ... against the dictionary chunk whose key follows the flags
	flagDictTail             // ... its last dictTail bytes only
)

// The segment tags.
const (
	tagLiteral = 'L' // uvarint length, then that many bytes
	tagChunk   = 'C' // 32-byte SHA-256 key, then the uvarint length of the chunk's bytes
	tagNode    = 'N' // 32-byte SHA-256 key of a node row, then the uvarint length it rebuilds
)

// nodeEvery sets the size of nodes: a run of chunk references is grouped into a node row
// (a list of references kept once, like a chunk) after every reference whose key's first
// byte is a multiple of nodeEvery, so about nodeEvery references per node. A history that
// grows turn by turn then costs its forms a few node references, not one per chunk.
const nodeEvery = 8

// The first byte of a chunk row's data.
const (
	chunkRaw     = 0 // the chunk's bytes follow as they are
	chunkDeflate = 1 // the chunk's bytes follow compressed with DEFLATE
)

// Caps on what a stored row may ask a reader to build, so that a damaged or hostile row
// cannot make a reader allocate without bound.
const (
	// MaxValue bounds the bytes one form rebuilds; a longer value is kept as it is.
	MaxValue = 1 << 30
	// maxDict bounds a dictionary chunk (DEFLATE looks back 32 KiB at most).
	maxDict = 32 << 10
)

// Key is the SHA-256 of a chunk's bytes, the key its row is stored under.
type Key [sha256.Size]byte

// Chunk is a chunk row to write: its key and its data (see Unpack).
type Chunk struct {
	Key  Key
	Data []byte
}

// IsForm reports whether b starts with the marker of a form. A record or events column is a
// form exactly when this holds; a blob row is one when BlobIsForm holds.
func IsForm(b []byte) bool { return bytes.HasPrefix(b, marker) }

// BlobIsForm reports whether the data of the blob row kept under digest (lowercase hex
// SHA-256) is a form rather than the blob's bytes: it has the marker and does not hash to
// the digest. (A blob whose own bytes start with the marker still hashes to its digest.)
func BlobIsForm(digest string, data []byte) bool {
	if !IsForm(data) {
		return false
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]) != digest
}

// FormError is a stored value that does not decode: a damaged row, or one written by a
// newer version of the library.
type FormError struct {
	Reason string
}

func (e *FormError) Error() string { return "stored value: " + e.Reason }

func formErr(format string, args ...any) error {
	return &FormError{Reason: fmt.Sprintf(format, args...)}
}

// packChunk returns the row data of a chunk of bytes b: compressed in Compact mode when that
// is smaller.
func packChunk(b []byte, m Mode, z *deflater) []byte {
	if m == Compact {
		if c := z.deflate(b, nil, dictID{}); len(c) < len(b) {
			return append([]byte{chunkDeflate}, c...)
		}
	}
	return append([]byte{chunkRaw}, b...)
}

// Unpack returns the bytes of a chunk from its row data, refusing anything but exactly n
// bytes (n < 0: a dictionary chunk, of any length up to 32 KiB).
func Unpack(data []byte, n int) ([]byte, error) { return new(inflater).unpack(data, n) }

func (in *inflater) unpack(data []byte, n int) ([]byte, error) {
	if len(data) == 0 {
		return nil, errors.New("empty chunk data")
	}
	limit := n
	if n < 0 {
		limit = maxDict
	}
	var b []byte
	switch data[0] {
	case chunkRaw:
		b = data[1:]
	case chunkDeflate:
		var err error
		if b, err = in.inflate(data[1:], nil, limit); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("unknown chunk encoding %#x", data[0])
	}
	if n >= 0 && len(b) != n || len(b) > limit {
		return nil, fmt.Errorf("%d bytes, want %d", len(b), n)
	}
	return b, nil
}

// deflater compresses with one reusable writer per dictionary (a writer keeps the
// dictionary it was made with across Reset).
type deflater struct {
	buf     bytes.Buffer
	writers map[dictID]*flate.Writer
}

// dictID names the dictionary of a writer: the dictionary chunk's key and whether only its
// tail is used; the zero value is no dictionary.
type dictID struct {
	key  Key
	tail bool
}

// deflate compresses b against dict, which id names (the zero id with a nil dict).
func (z *deflater) deflate(b, dict []byte, id dictID) []byte {
	if dict == nil {
		id = dictID{}
	}
	z.buf.Reset()
	w := z.writers[id]
	if w != nil {
		w.Reset(&z.buf)
	} else {
		// A valid level never fails.
		if dict != nil {
			w, _ = flate.NewWriterDict(&z.buf, flate.DefaultCompression, dict)
		} else {
			w, _ = flate.NewWriter(&z.buf, flate.DefaultCompression)
		}
		if z.writers == nil {
			z.writers = map[dictID]*flate.Writer{}
		}
		if len(z.writers) >= 4 {
			clear(z.writers) // an encoder moving on to other agents' dictionaries
		}
		z.writers[id] = w
	}
	w.Write(b) // writes to a bytes.Buffer cannot fail
	w.Close()
	return bytes.Clone(z.buf.Bytes())
}

// inflater decompresses with one reader, reset for each stream (a reader holds a 32 KiB
// window: making one per chunk would cost more than the chunk).
type inflater struct {
	src bytes.Reader
	r   io.ReadCloser
}

// inflate decompresses z (against dict, when not nil), refusing more than limit bytes.
func (in *inflater) inflate(z, dict []byte, limit int) ([]byte, error) {
	in.src.Reset(z)
	if in.r == nil {
		in.r = flate.NewReaderDict(&in.src, dict)
	} else if err := in.r.(flate.Resetter).Reset(&in.src, dict); err != nil {
		return nil, err
	}
	// A chunk's length is known: its bytes are read into a buffer of that size at once.
	if limit <= maxChunk {
		b := make([]byte, limit+1)
		n, err := io.ReadFull(in.r, b)
		switch {
		case err == io.ErrUnexpectedEOF || err == io.EOF:
			return b[:n], nil
		case err != nil:
			return nil, err
		}
		return nil, fmt.Errorf("decompresses to more than %d bytes", limit)
	}
	b, err := io.ReadAll(io.LimitReader(in.r, int64(limit)+1))
	if err != nil {
		return nil, err
	}
	if len(b) > limit {
		return nil, fmt.Errorf("decompresses to more than %d bytes", limit)
	}
	return b, nil
}
